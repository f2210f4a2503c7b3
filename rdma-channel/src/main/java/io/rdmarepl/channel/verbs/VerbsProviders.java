package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ChannelUri.Transport;
import io.rdmarepl.channel.softverbs.SoftRdma;

/** Chooses DiSNI's provider for a transport before the first DiSNI call of this JVM. */
public final class VerbsProviders {
    private VerbsProviders() {
    }

    /**
     * {@code softrdma}: installs the software provider. {@code rdma}: runs the native startup check.
     *
     * @throws IllegalStateException naming what is missing, or when the JVM already runs the other provider
     */
    public static synchronized void prepare(Transport transport) {
        switch (transport) {
            case SOFTRDMA -> SoftRdma.install();
            case RDMA -> {
                if (!SoftRdma.otherProviderActive()) {
                    NativeVerbsCheck.require(transport.scheme() + "://");
                }
                if (SoftRdma.isInstalled()) {
                    throw new IllegalStateException("this JVM already runs " + SoftRdma.LABEL
                            + ": rdma:// and softrdma:// cannot be mixed in one process");
                }
            }
            default -> throw new IllegalArgumentException("not a verbs transport: " + transport);
        }
    }

    /** How the provider is named in logs and status. */
    public static String label(Transport transport) {
        return transport == Transport.SOFTRDMA ? SoftRdma.LABEL : "DiSNI native verbs";
    }
}
