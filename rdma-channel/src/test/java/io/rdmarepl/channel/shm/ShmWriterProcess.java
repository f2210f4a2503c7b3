package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.NumberedFrames;
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
            NumberedFrames.write(writer, 11, frames, maxPayload, 16);
            System.out.println("wrote " + frames + " frames, back-pressured " + writer.backPressureEvents() + " times");
        }
    }
}
