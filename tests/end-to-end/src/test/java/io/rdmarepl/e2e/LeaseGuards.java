package io.rdmarepl.e2e;

import io.rdmarepl.shipper.lease.LeaseFile;
import io.rdmarepl.shipper.lease.LeaseFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease guards a test's shippers started: separate processes that outlive the shippers by design, so a test
 * ends them itself once its shippers are stopped, and this JVM's exit ends those of a test that failed hard.
 */
final class LeaseGuards {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGuards.class);
    private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> DIRECTORIES.forEach(LeaseGuards::killLeftIn), "e2e-lease-guard-killer"));
    }

    private LeaseGuards() {
    }

    /** Kills, when this JVM exits, the guards of the lease files in {@code directory} still running then. */
    static void watch(Path directory) {
        DIRECTORIES.add(directory);
    }

    /** The guard pid the lease file names, or 0. */
    static long pid(Path leaseFile) {
        try {
            return LeaseFile.map(leaseFile, false).readGuard().pid();
        } catch (IOException | LeaseFileException e) {
            return 0;
        }
    }

    static boolean alive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Kills the guards of the lease files in {@code directory} that still run (the shippers are stopped by now). */
    static void killLeftIn(Path directory) {
        List<Path> leases;
        try (Stream<Path> files = Files.list(directory)) {
            leases = files.filter(f -> f.getFileName().toString().startsWith("rdmarepl-lease-") && !f.toString().endsWith(".lock")).toList();
        } catch (java.nio.file.NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path lease : leases) {
            long pid = pid(lease);
            if (alive(pid)) {
                LOG.info("ending lease guard pid {} of {}: its test is over", pid, lease);
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
