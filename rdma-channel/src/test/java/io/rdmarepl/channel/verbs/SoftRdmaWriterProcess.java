package io.rdmarepl.channel.verbs;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.ring.Payloads;
import io.rdmarepl.channel.ring.RingWriter;

/** Main class run in a separate JVM by {@link SoftRdmaTwoProcessIT}: writes numbered frames over softrdma. */
public final class SoftRdmaWriterProcess {
    private SoftRdmaWriterProcess() {
    }

    public static void main(String[] args) {
        ChannelUri uri = ChannelUri.parse(args[0]);
        long frames = Long.parseLong(args[1]);
        int maxPayload = Integer.parseInt(args[2]);
        try (VerbsWriterEnd end = VerbsWriterEnd.connect(uri, ChannelSecurity.fromEnvironment(), VerbsSettings.defaults())) {
            RingWriter writer = new RingWriter(end);
            for (long number = 0; number < frames; ) {
                int length = Payloads.lengthOf(number, maxPayload);
                int offset = writer.tryClaim(11, length);
                if (offset < 0) {
                    writer.publish();
                    Thread.onSpinWait();
                    continue;
                }
                Payloads.fill(writer.buffer(), offset, length, number++);
                writer.commit();
                if ((number & 15) == 0) {
                    writer.publish();
                }
            }
            writer.publish();
            System.out.println("wrote " + frames + " frames, back-pressured " + writer.backPressureEvents() + " times");
        }
    }
}
