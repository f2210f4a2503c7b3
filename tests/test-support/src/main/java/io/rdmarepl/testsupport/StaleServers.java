package io.rdmarepl.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and removes what a killed run left in a base directory: instance directories whose owning JVM is gone,
 * and the postmaster still running in them. An instance directory is {@code <name>-<uuid>} and holds
 * {@code owner} (pid and start instant of the JVM that made it), {@code data/} and {@code server.log}.
 */
final class StaleServers {
    static final String OWNER_FILE = "owner";
    static final String DATA_DIR = "data";
    static final String LOG_FILE = "server.log";

    private static final long EXIT_POLL_MS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(StaleServers.class);
    private static final Pattern INSTANCE_DIR = Pattern.compile(
        ".+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Set<Path> CLEANED = ConcurrentHashMap.newKeySet();

    private StaleServers() {
    }

    /**
     * Clean a base directory once per JVM, before the first server starts in it.
     */
    /** Synchronized: a server starting in parallel must not create its directory while the clean-up runs. */
    static synchronized void cleanOnce(final Path baseDirectory) {
        if (CLEANED.add(baseDirectory)) {
            clean(baseDirectory);
        }
    }

    static void clean(final Path baseDirectory) {
        final List<Path> candidates;
        try (Stream<Path> children = Files.list(baseDirectory)) {
            candidates = children
                .filter(Files::isDirectory)
                .filter((dir) -> INSTANCE_DIR.matcher(dir.getFileName().toString()).matches())
                .collect(Collectors.toList());
        } catch (final IOException ex) {
            throw new UncheckedIOException("could not list stale PostgreSQL servers in " + baseDirectory, ex);
        }

        for (final Path dir : candidates) {
            if (!Files.exists(dir.resolve(OWNER_FILE)) && youngerThanAMinute(dir)) {
                continue; // another JVM is creating it right now and has not written its owner file yet
            }
            if (!ownerAlive(dir.resolve(OWNER_FILE))) {
                final long pid = postmasterPid(dir.resolve(DATA_DIR)).orElse(-1L);
                final boolean killed = pid > 0 && killPostmaster(pid, Duration.ofSeconds(5));
                deleteRecursively(dir);
                LOG.info("removed stale PostgreSQL instance {}{}", dir, killed ? " and killed its postmaster " + pid : "");
            }
        }
    }

    private static boolean youngerThanAMinute(final Path dir) {
        try {
            return Files.getLastModifiedTime(dir).toInstant().isAfter(Instant.now().minusSeconds(60));
        } catch (final IOException ex) {
            return false;
        }
    }

    /**
     * @return the content of an owner file for this JVM.
     */
    static String ownerLine() {
        final ProcessHandle self = ProcessHandle.current();
        return self.pid() + " " + self.info().startInstant().map(Instant::toString).orElse("?");
    }

    private static boolean ownerAlive(final Path ownerFile) {
        final String[] owner;
        try {
            owner = Files.readString(ownerFile, StandardCharsets.US_ASCII).trim().split(" ");
        } catch (final IOException ex) {
            // no owner file: a JVM died between creating the directory and writing it, or it is not ours
            return false;
        }
        final Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(owner[0]));
        return process.isPresent() && process.get().info().startInstant()
            .map((start) -> start.toString().equals(owner[1]))
            .orElse(true);
    }

    /**
     * @return the pid in the first line of {@code postmaster.pid}, if the file exists.
     */
    static Optional<Long> postmasterPid(final Path dataDirectory) {
        final Path pidFile = dataDirectory.resolve("postmaster.pid");
        try {
            final List<String> lines = Files.readAllLines(pidFile, StandardCharsets.US_ASCII);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (final IOException | NumberFormatException ex) {
            return Optional.empty();
        }
    }

    /**
     * SIGKILL a postmaster and its children, if that pid still runs a postgres binary, and wait for it to exit.
     *
     * @return true if a process was killed.
     */
    static boolean killPostmaster(final long pid, final Duration timeout) {
        final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !isRunning(pid)) {
            return false;
        }
        final ProcessHandle postmaster = handle.get();
        final Optional<String> command = postmaster.info().command();
        if (command.isEmpty() || !command.get().endsWith("/postgres")) {
            LOG.warn("pid {} is not a postgres process (command {}); not killing it", pid, command.orElse("unknown"));
            return false;
        }
        postmaster.descendants().forEach(ProcessHandle::destroyForcibly);
        postmaster.destroyForcibly();
        awaitExit(pid, timeout);
        return true;
    }

    /**
     * Poll rather than {@code ProcessHandle.onExit()}: for a process that is not our child, as a postmaster
     * started through pg_ctl is not, the JDK polls with a back-off that adds seconds to every stop.
     *
     * @return true if the process is gone within the timeout.
     */
    static boolean awaitExit(final long pid, final Duration timeout) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (isRunning(pid)) {
            if (System.nanoTime() - deadlineNs > 0) {
                return false;
            }
            try {
                Thread.sleep(EXIT_POLL_MS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                return !isRunning(pid);
            }
        }
        return true;
    }

    /**
     * A postmaster started by pg_ctl is reparented to pid 1, which may take a while to reap it: an exited
     * process that is not yet reaped (a zombie, state Z in /proc) is not running, though ProcessHandle says alive.
     *
     * @return true if the process exists and is not a zombie.
     */
    static boolean isRunning(final long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            return processState(pid) != 'Z';
        } catch (final IOException ex) {
            return !Files.isDirectory(Path.of("/proc")) && ProcessHandle.of(pid).isPresent();
        }
    }

    /**
     * The state letter of {@code /proc/<pid>/stat} ({@code R}, {@code S}, {@code T} stopped, {@code Z} zombie...); '?'
     * when the line has none. After "pid (comm) ": comm may hold spaces and parentheses, so the last ')' ends it.
     *
     * @throws IOException when there is no such process (or no /proc)
     */
    static char processState(final long pid) throws IOException {
        final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        final int afterName = stat.lastIndexOf(')');
        return afterName < 0 || afterName + 2 >= stat.length() ? '?' : stat.charAt(afterName + 2);
    }

    static void deleteRecursively(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        } catch (final IOException ex) {
            throw new UncheckedIOException("could not delete " + dir, ex);
        }
    }
}
