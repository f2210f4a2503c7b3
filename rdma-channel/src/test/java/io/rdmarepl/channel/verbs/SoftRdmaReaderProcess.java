package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.RingReader;

/** Main class run in a separate JVM by {@link SoftRdmaTwoProcessIT}: a standby that reads until it is killed. */
public final class SoftRdmaReaderProcess {
    private SoftRdmaReaderProcess() {
    }

    public static void main(String[] args) {
        int capacity = Integer.parseInt(args[0]);
        VerbsReaderEnd end = VerbsReaderEnd.listen(ChannelUri.parse("softrdma://127.0.0.1:0"), new RingSettings(capacity, 1, 5L, true),
                ChannelSecurity.fromEnvironment(), VerbsSettings.defaults());
        RingReader reader = new RingReader(end);
        System.out.println("READY " + end.uri());
        System.out.flush();
        IdleStrategy idle = BackoffIdleStrategy.defaults();
        while (true) {
            idle.idle(reader.poll((t, f, b, o, l) -> { }, 256));
        }
    }
}
