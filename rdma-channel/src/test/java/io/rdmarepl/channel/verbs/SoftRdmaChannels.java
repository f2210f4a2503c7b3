package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import java.util.concurrent.ThreadLocalRandom;

/** Test helpers: softrdma ends on loopback with a test secret and short timeouts. */
public final class SoftRdmaChannels {
    public static final ChannelSecurity SECRET = ChannelSecurity.ofText("test-secret-0123456789abcdef");
    public static final VerbsSettings FAST = new VerbsSettings(3_000, 3_000, 3_000, 64, 8, 50);

    private SoftRdmaChannels() {
    }

    public static VerbsReaderEnd reader(int capacity, int epoch) {
        return VerbsReaderEnd.listen(ChannelUri.parse("softrdma://127.0.0.1:0"),
                new RingSettings(capacity, epoch, ThreadLocalRandom.current().nextLong(), true), SECRET, FAST);
    }

    public static VerbsWriterEnd writer(VerbsReaderEnd reader) {
        return VerbsWriterEnd.connect(ChannelUri.parse(reader.uri()), SECRET, FAST);
    }
}
