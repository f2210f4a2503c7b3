package io.rdmarepl.channel.shm;

import io.rdmarepl.channel.ring.NumberedFrames;
import io.rdmarepl.channel.ring.RingWriter;
import java.nio.file.Path;

/** Main class run in a separate JVM by {@link ShmTwoProcessIT}: writes numbered frames into a ring file. */
public final class ShmWriterProcess {
    private ShmWriterProcess() {
    }

    public static void main(String[] args) {
        exitWithParent();
        Path path = Path.of(args[0]);
        long frames = Long.parseLong(args[1]);
        int maxPayload = Integer.parseInt(args[2]);
        try (ShmWriterEnd end = ShmWriterEnd.attach(path)) {
            RingWriter writer = new RingWriter(end);
            NumberedFrames.write(writer, 11, frames, maxPayload, 16);
            System.out.println("wrote " + frames + " frames, back-pressured " + writer.backPressureEvents() + " times");
        }
    }

    /**
     * A test JVM killed mid-run (a build stopped by hand) leaves no reader: the writer would wait for ring space
     * forever, spinning a core. It goes when its parent goes.
     */
    private static void exitWithParent() {
        ProcessHandle.current().parent().ifPresent(parent -> {
            Thread watch = new Thread(() -> {
                parent.onExit().join();
                System.err.println("the test JVM that started this writer is gone: exiting");
                Runtime.getRuntime().halt(3);
            }, "parent-watch");
            watch.setDaemon(true);
            watch.start();
        });
    }
}
