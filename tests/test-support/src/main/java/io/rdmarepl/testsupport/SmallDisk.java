package io.rdmarepl.testsupport;

import io.rdmarepl.testsupport.net.SystemCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small tmpfs that a test fills and frees: a disk that runs out of space under a running server. It is mounted in
 * the mount namespace of one process ({@code nsenter -t PID -m}), e.g. a postmaster started on a {@code NetHost}
 * ({@code ip netns exec} gave it a mount namespace of its own): that process and its children see it, the machine
 * does not, and it goes away with the process even when the test dies. Every command runs in that namespace. Needs
 * root, as the network namespaces do.
 */
public final class SmallDisk implements AutoCloseable {
    private static final String FILLER = "filler";
    private final long pid;
    private final Path directory;

    private SmallDisk(long pid, Path directory) {
        this.pid = pid;
        this.directory = directory;
    }

    /**
     * Mounts a tmpfs of {@code megabytes} (mode 0700, root's) at {@code directory}, made first if missing, in the mount
     * namespace of process {@code pid}.
     */
    public static SmallDisk mount(long pid, Path directory, int megabytes) throws IOException {
        Files.createDirectories(directory);
        SmallDisk disk = new SmallDisk(pid, directory.toAbsolutePath());
        disk.run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m,mode=0700", "tmpfs", disk.directory.toString());
        return disk;
    }

    public Path directory() {
        return directory;
    }

    /** A filler file takes every free byte: writes that need new space fail with ENOSPC from now on. */
    public void fill() {
        // dd stops at ENOSPC and exits 1 for it: that is the point
        SystemCommand.Result dd = SystemCommand.attempt(inNamespace("dd", "if=/dev/zero", "of=" + directory.resolve(FILLER),
                "bs=1M", "status=none"));
        if (dd.succeeded() || !dd.output().contains("No space left")) {
            throw new IllegalStateException("filling " + this + " did not run out of space: " + dd.firstLine());
        }
    }

    /** Deletes the filler: the space is back. */
    public void free() {
        run("rm", "-f", directory.resolve(FILLER).toString());
    }

    /** Free bytes now, as {@code df} sees them. */
    public long freeBytes() {
        String out = run("df", "--output=avail", "-B1", directory.toString());
        return Long.parseLong(out.lines().skip(1).findFirst().orElseThrow().trim());
    }

    /** Unmounts (lazily: a server may still hold files on it); nothing when the process is gone with its namespace. */
    @Override
    public void close() {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            SystemCommand.attempt(inNamespace("umount", "-l", directory.toString()));
        }
    }

    @Override
    public String toString() {
        return "tmpfs " + directory + " of process " + pid;
    }

    private String run(String... command) {
        return SystemCommand.run(inNamespace(command));
    }

    private List<String> inNamespace(String... command) {
        List<String> wrapped = new ArrayList<>(List.of("nsenter", "-t", Long.toString(pid), "-m", "--"));
        wrapped.addAll(List.of(command));
        return wrapped;
    }
}
