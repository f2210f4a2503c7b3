package io.rdmarepl.harness.bench;

import io.rdmarepl.testsupport.PostgresServer;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * PostgreSQL's own answer, for comparison: a physical streaming standby of the primary, promoted with
 * {@code pg_ctl promote}. The embedded binaries ship {@code initdb}, {@code pg_ctl} and {@code postgres} but no
 * {@code pg_basebackup}, so the base backup is taken the other documented way ("Making a Base Backup Using the
 * Low Level API"): {@code pg_backup_start()}, a copy of the data directory, {@code pg_backup_stop()} and its
 * backup label. The standby streams from a physical slot created first, with the primary's own server settings.
 * Its directory is {@code <base>/reference-<uuid>/} with an owner file, so a later run removes what a killed one
 * left (as for every embedded server).
 */
public final class PhysicalStandby implements AutoCloseable {
    static final String NAME = "postgresql physical standby, pg_ctl promote";
    static final String BASE_BACKUP = "pg_backup_start() + copy of the data directory + pg_backup_stop() "
            + "(the embedded PostgreSQL binaries have no pg_basebackup)";
    /** The physical slot it streams from, on the primary (left there by {@link #close()}). */
    public static final String SLOT = "rdmarepl_reference";
    /** The application_name of its WAL receiver: what synchronous_standby_names lists to make it synchronous. */
    public static final String APPLICATION_NAME = "rdmarepl_reference";
    /** What a base backup leaves out: contents recreated at start, or the primary's own (slots, WAL). */
    private static final Set<String> EMPTIED = Set.of("pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify", "pg_serial",
            "pg_snapshots", "pg_stat_tmp", "pg_subtrans");
    private static final Set<String> SKIPPED_FILES = Set.of("postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map",
            "standby.signal", "recovery.signal", "pg_internal.init");

    private final Path bin;
    private final Path instance;
    private final int port;
    private boolean stopped;

    private PhysicalStandby(Path bin, Path instance, int port) {
        this.bin = bin;
        this.instance = instance;
        this.port = port;
    }

    /** Why the reference cannot run with these binaries, if it cannot. */
    public static Optional<String> unavailable(PostgresServer primary) {
        Path bin = binaries(primary);
        if (!Files.isExecutable(bin.resolve("pg_ctl"))) {
            return Optional.of("the embedded PostgreSQL binaries in " + bin + " have no pg_ctl");
        }
        return Optional.empty();
    }

    /** Takes the base backup of {@code primary}, starts the standby and waits until it streams. */
    public static PhysicalStandby create(PostgresServer primary) throws Exception {
        Path bin = binaries(primary);
        Path instance = PostgresServer.defaultBaseDirectory().resolve("reference-" + UUID.randomUUID());
        Path data = instance.resolve("data");
        Files.createDirectories(data);
        Files.setPosixFilePermissions(data, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")); // PostgreSQL insists
        ProcessHandle self = ProcessHandle.current();
        Files.writeString(instance.resolve("owner"), self.pid() + " " + self.info().startInstant().map(Instant::toString).orElse("?"));
        PhysicalStandby standby = new PhysicalStandby(bin, instance, freePort());
        try {
            standby.baseBackup(primary, data);
            standby.pgCtl(Duration.ofSeconds(70), "-D", data.toString(), "-l", instance.resolve("server.log").toString(), "-w", "-t", "60", "start");
            standby.awaitStreaming(Duration.ofSeconds(30));
            return standby;
        } catch (Exception | Error e) {
            standby.close();
            throw e;
        }
    }

    private void baseBackup(PostgresServer primary, Path data) throws SQLException, IOException {
        List<String> settings = new ArrayList<>();
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("SELECT pg_create_physical_replication_slot('" + SLOT + "', true)");
            try (ResultSet rs = s.executeQuery("SELECT name, setting FROM pg_settings WHERE source = 'command line' AND name <> 'port'")) {
                while (rs.next()) {
                    settings.add(rs.getString(1) + " = '" + rs.getString(2).replace("'", "''") + "'");
                }
            }
            s.execute("SELECT pg_backup_start('rdmarepl reference standby', true)");
            copyDataDirectory(primary.dataDirectory(), data);
            try (ResultSet rs = s.executeQuery("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)")) {
                rs.next();
                Files.writeString(data.resolve("backup_label"), rs.getString(1));
                String map = rs.getString(2);
                if (map != null && !map.isEmpty()) {
                    Files.writeString(data.resolve("tablespace_map"), map);
                }
            }
        }
        settings.add("port = " + port);
        settings.add("primary_conninfo = 'host=" + PostgresServer.HOST + " port=" + primary.port() + " user=" + PostgresServer.SUPERUSER
                + " application_name=" + APPLICATION_NAME + "'");
        settings.add("primary_slot_name = '" + SLOT + "'");
        Files.writeString(data.resolve("postgresql.auto.conf"), "\n# rdmarepl reference standby\n" + String.join("\n", settings) + "\n",
                java.nio.file.StandardOpenOption.APPEND, java.nio.file.StandardOpenOption.CREATE);
        Files.createFile(data.resolve("standby.signal"));
    }

    private static void copyDataDirectory(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path relative = from.relativize(dir);
                Files.createDirectories(to.resolve(relative.toString()));
                if (relative.getNameCount() == 1 && EMPTIED.contains(relative.toString()) && !relative.toString().equals("pg_wal")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path relative = from.relativize(file);
                String name = file.getFileName().toString();
                boolean inWal = relative.getNameCount() > 1 && relative.getName(0).toString().equals("pg_wal");
                if (inWal || SKIPPED_FILES.contains(name) || name.startsWith("pgsql_tmp") || !attrs.isRegularFile()) {
                    return FileVisitResult.CONTINUE;
                }
                try {
                    Files.copy(file, to.resolve(relative.toString()), StandardCopyOption.COPY_ATTRIBUTES);
                } catch (NoSuchFileException gone) {
                    // removed while copying (a temporary file): recovery does not need it
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
    }

    private void awaitStreaming(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String status = null;
        while (System.nanoTime() - deadline < 0) {
            try (Connection c = connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT status FROM pg_stat_wal_receiver")) {
                status = rs.next() ? rs.getString(1) : "no WAL receiver";
                if ("streaming".equals(status)) {
                    return;
                }
            } catch (SQLException e) {
                status = e.getMessage();
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the reference standby does not stream within " + timeout.toSeconds() + " s (" + status
                + "); see " + instance.resolve("server.log"));
    }

    /**
     * Runs {@code pg_ctl promote} without waiting and, on a connection opened before, tries an insert into
     * {@code table} until one commits.
     *
     * @return microseconds from the promote call to that first successful write
     */
    long promoteToFirstWriteUs(String table) throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            long startNs = System.nanoTime();
            pgCtl(Duration.ofSeconds(30), "-D", instance.resolve("data").toString(), "-W", "promote");
            long deadline = startNs + TimeUnit.SECONDS.toNanos(30);
            SQLException last = null;
            while (System.nanoTime() - deadline < 0) {
                try {
                    s.execute("INSERT INTO " + table + " (id) VALUES (-2) ON CONFLICT (id) DO NOTHING");
                    return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNs);
                } catch (SQLException e) {
                    if (!"25006".equals(e.getSQLState())) {
                        throw e;
                    }
                    last = e;
                    LockSupport.parkNanos(100_000);
                }
            }
            throw new IllegalStateException("the reference standby took no write within 30 s of pg_ctl promote: " + last);
        }
    }

    /** The port it listens on ({@link PostgresServer#HOST}, superuser {@link PostgresServer#SUPERUSER}, no password). */
    public int port() {
        return port;
    }

    /** Every id in {@code table}. */
    Set<Long> ids(String table) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + table)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + PostgresServer.HOST + ":" + port + "/postgres?user="
                + PostgresServer.SUPERUSER + "&connectTimeout=5");
    }

    /** pg_ctl as zonky runs it: in a new user namespace when this process is root (PostgreSQL refuses root). */
    private void pgCtl(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.add("unshare");
            command.add("-U");
        }
        command.add(bin.resolve("pg_ctl").toString());
        command.addAll(List.of(args));
        Path log = instance.resolve("pg_ctl.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile())).start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("pg_ctl " + String.join(" ", args) + " did not finish within " + timeout.toSeconds() + " s; see " + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("pg_ctl " + String.join(" ", args) + " failed (exit " + process.exitValue() + "): "
                    + tail(log) + "\n" + tail(instance.resolve("server.log")));
        }
    }

    /** Stops the standby (immediate) and deletes its directory. */
    @Override
    public void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        Path pidFile = instance.resolve("data").resolve("postmaster.pid");
        try {
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
                try {
                    pgCtl(Duration.ofSeconds(20), "-D", instance.resolve("data").toString(), "-m", "immediate", "-w", "stop");
                } catch (IOException | RuntimeException e) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no pid file to read: nothing started
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(instance)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the reference standby's directory " + instance, e);
        }
    }

    /** The directory of the binaries the primary runs: its postmaster's executable, else the extracted PG-* directory. */
    private static Path binaries(PostgresServer primary) {
        Optional<Path> running = ProcessHandle.of(primary.pid()).flatMap(p -> p.info().command()).map(c -> Path.of(c).getParent());
        if (running.isPresent()) {
            return running.get();
        }
        try (Stream<Path> dirs = Files.list(PostgresServer.defaultBaseDirectory())) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("PG-")).map(d -> d.resolve("bin"))
                    .filter(Files::isDirectory).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no extracted PostgreSQL binaries in " + PostgresServer.defaultBaseDirectory()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(PostgresServer.HOST))) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(no " + file.getFileName() + ")";
        }
    }
}
