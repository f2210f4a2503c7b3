package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.Payloads;
import io.rdmarepl.channel.ring.RingWriter;
import java.nio.file.Path;

/** Main class run in a separate JVM by {@link ShmTwoProcessIT}: writes numbered frames into a ring file. */
public final class ShmWriterProcess {
    private ShmWriterProcess() {
    }

    public static void main(String[] args) {
        Path path = Path.of(args[0]);
        long frames = Long.parseLong(args[1]);
        int maxPayload = Integer.parseInt(args[2]);
        try (ShmWriterEnd end = ShmWriterEnd.attach(path)) {
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
