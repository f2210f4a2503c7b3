package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.RdmaProvider;
import java.lang.reflect.Field;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs the software RDMA provider into DiSNI. DiSNI keeps its provider in a private static
 * field that it fills with the native provider on first use, so installation must happen before
 * anything in this JVM touches DiSNI; after that, one JVM runs either the software or the native
 * provider, never both.
 */
public final class SoftRdma {
    /** How the provider names itself in logs, status and errors. */
    public static final String LABEL = "softrdma (software RDMA emulation over TCP: no kernel bypass, no zero-copy)";
    private static final Logger LOG = LoggerFactory.getLogger(SoftRdma.class);

    private SoftRdma() {
    }

    /**
     * Makes DiSNI use the software provider in this JVM. Idempotent.
     *
     * @throws IllegalStateException when DiSNI already runs its native provider here
     */
    public static synchronized void install() {
        try {
            Field field = providerField();
            Object current = field.get(null);
            if (current instanceof SoftRdmaProvider) {
                return;
            }
            if (current != null) {
                throw new IllegalStateException("cannot install " + LABEL + ": DiSNI already runs "
                        + current.getClass().getName() + " in this JVM (rdma:// and softrdma:// cannot be mixed in one process)");
            }
            field.set(null, new SoftRdmaProvider());
            LOG.info("installed {} into DiSNI", LABEL);
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (e instanceof IllegalStateException ise) {
                throw ise;
            }
            throw new IllegalStateException("cannot install " + LABEL + " into DiSNI "
                    + "(RdmaProvider.provider is not writable: " + e + ")", e);
        }
    }

    /** True when DiSNI in this JVM runs the software provider. */
    public static boolean isInstalled() {
        try {
            return providerField().get(null) instanceof SoftRdmaProvider;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** True when DiSNI in this JVM already chose a provider other than this one. */
    public static boolean otherProviderActive() {
        try {
            Object current = providerField().get(null);
            return current != null && !(current instanceof SoftRdmaProvider);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private static Field providerField() throws NoSuchFieldException {
        Field field = RdmaProvider.class.getDeclaredField("provider");
        field.setAccessible(true);
        return field;
    }
}
