package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import java.io.IOException;

/** A protection domain: a region is reachable only through queue pairs of its own domain. */
final class SoftPd extends IbvPd {
    SoftPd(IbvContext context, int handle) throws IOException {
        super(context);
        this.handle = handle;
    }
}
