package io.rdmarepl.testsupport.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Picks a private /24 of {@code 10.213.0.0/16} that no interface of this machine uses yet, and makes it taken (the
 * caller adds its bridge address) while holding a machine-wide file lock, so that parallel runs never share one.
 * The search starts at a subnet derived from this JVM's pid.
 */
final class Subnets {
    static final String FIRST_TWO_OCTETS = "10.213.";
    private static final Path LOCK = Path.of(System.getProperty("java.io.tmpdir"), "rdmarepl-netns.lock");
    private static final int FIRST = 16;
    private static final int COUNT = 224;

    private Subnets() {
    }

    /**
     * Under the lock: finds a free third octet {@code x} and calls {@code claim} with it, which must give an
     * interface of the root namespace an address in {@code 10.213.x.0/24} before it returns.
     */
    static <T> T claim(IntFunction<T> claim) {
        try (FileChannel channel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            String used = SystemCommand.run(List.of("ip", "-o", "-4", "addr", "show"))
                    + SystemCommand.run(List.of("ip", "-4", "route", "show"));
            int start = (int) (ProcessHandle.current().pid() % COUNT);
            for (int i = 0; i < COUNT; i++) {
                int x = FIRST + (start + i) % COUNT;
                if (!used.contains(FIRST_TWO_OCTETS + x + ".")) {
                    return claim.apply(x);
                }
            }
            throw new IllegalStateException("every subnet " + FIRST_TWO_OCTETS + "[" + FIRST + ".." + (FIRST + COUNT - 1)
                    + "].0/24 is in use on this machine");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + LOCK, e);
        }
    }
}
