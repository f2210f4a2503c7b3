package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvContext;
import java.io.IOException;

/** The one emulated device: every cm id of the software provider reports this context. */
final class SoftContext extends IbvContext {
    SoftContext() throws IOException {
        super(-1, 1);
    }
}
