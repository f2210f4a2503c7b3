package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaProvider;
import com.ibm.disni.verbs.RdmaVerbs;

/**
 * DiSNI's provider SPI implemented in Java over TCP. The constructor creates no DiSNI object:
 * every {@code Ibv*} constructor calls back into {@link RdmaProvider#provider()}.
 */
final class SoftRdmaProvider extends RdmaProvider {
    /** Bumped when the wire protocol changes. */
    static final int VERSION = 1;
    private final SoftRdmaVerbs verbs = new SoftRdmaVerbs();
    private final SoftRdmaCm cm = new SoftRdmaCm(verbs);

    @Override
    public RdmaCm openCm() {
        return cm;
    }

    @Override
    public RdmaVerbs openVerbs() {
        return verbs;
    }

    @Override
    public int getVersion() {
        return VERSION;
    }
}
