package io.rdmarepl.e2e;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresPair;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.cluster.RoleConfigs;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import io.rdmarepl.testsupport.compare.ComparisonReport;
import io.rdmarepl.testsupport.compare.ReplicaComparison;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whole path for one test class: a primary and a replica PostgreSQL server, the test schema on both, and
 * {@code rdmarepl apply} and {@code rdmarepl ship} as separate processes configured by properties files under
 * {@code target/e2e/<name>/}, where their logs go too. Every wait has a deadline and fails with the tails of both
 * processes' logs.
 */
final class Replication implements AutoCloseable {
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(60);
    /** Bearer token of the shipper's and applier's control actions (the coordinator uses them). */
    static final String ROLES_TOKEN = "e2e-roles-token";
    /** Bearer token of the coordinator's control actions. */
    static final String COORDINATOR_TOKEN = "e2e-coordinator-token";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final String name;
    private final PostgresPair servers;
    private final Path directory;
    private final Path ring;
    private final String ringUri;
    private final Path shipperConfig;
    private final Path applierConfig;
    private final Map<String, Integer> starts = new HashMap<>();
    private RoleProcess shipper;
    private RoleProcess applier;
    private RoleProcess coordinator;
    private final List<RoleProcess> coordinators = new ArrayList<>();
    private RoleProcess reverseShipper;
    private RoleProcess reverseApplier;
    private long nextMarker = 1;
    private boolean coordinated;

    private Replication(String name, PostgresPair servers, Path directory, Path ring, String ringUri) {
        this.name = name;
        this.servers = servers;
        this.directory = directory;
        this.ring = ring;
        this.ringUri = ringUri;
        this.shipperConfig = directory.resolve("shipper.properties");
        this.applierConfig = directory.resolve("applier.properties");
    }

    /** Starts the two servers and creates the schema on both; the processes are started by the test. */
    static Replication create(String name) throws IOException {
        return create(name, "shm");
    }

    /**
     * Like {@link #create(String)}, with the ring on {@code transport}: {@code shm}, or {@code softrdma}
     * (the verbs code path over the software RDMA provider, on a free loopback port).
     */
    static Replication create(String name, String transport) throws IOException {
        return create(name, transport, servers -> {
            servers.primary().execute(Workload.SCHEMA);
            servers.replica().execute(Workload.SCHEMA);
        });
    }

    /**
     * Like {@link #create(String)}, with {@code setup} run on the started servers instead of creating
     * {@link Workload#SCHEMA}: another schema, server settings (restarting a server is fine), rows. The schema must
     * have the {@code marker} table {@link #awaitCaughtUp()} writes; {@link #compare()} knows only Workload's tables.
     */
    static Replication create(String name, Consumer<PostgresPair> setup) throws IOException {
        return create(name, "shm", setup);
    }

    private static Replication create(String name, String transport, Consumer<PostgresPair> setup) throws IOException {
        Path directory = Path.of("target", "e2e", name).toAbsolutePath();
        Files.createDirectories(directory);
        Path shm = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        Path ring = shm.resolve("rdmarepl-e2e-" + name + "-" + ProcessHandle.current().pid());
        String ringUri = transport.equals("softrdma") ? "softrdma://127.0.0.1:" + RoleConfigs.freePort() : "shm://" + ring;
        PostgresPair servers = PostgresPair.start(Durability.FAST);
        Replication replication = new Replication(name, servers, directory, ring, ringUri);
        LeaseGuards.watch(directory);
        try {
            setup.accept(servers);
            replication.writeConfigs();
            return replication;
        } catch (IOException | RuntimeException e) {
            servers.close();
            throw e;
        }
    }

    PostgresServer primary() {
        return servers.primary();
    }

    /** The directory of this test's configuration files, logs and lease files. */
    Path directory() {
        return directory;
    }

    /** The shipper's lease file (fence.lease.dir is the test's directory). */
    Path leaseFile() {
        return directory.resolve("rdmarepl-lease-primary");
    }

    PostgresServer replica() {
        return servers.replica();
    }

    RoleProcess shipper() {
        return shipper;
    }

    RoleProcess applier() {
        return applier;
    }

    /** Sets {@code key} in the shipper's configuration file, for the shipper started next. */
    void shipperSetting(String key, String value) throws IOException {
        Properties shipping = new Properties();
        try (var reader = Files.newBufferedReader(shipperConfig)) {
            shipping.load(reader);
        }
        shipping.setProperty(key, value);
        store(shipping, shipperConfig);
    }

    /**
     * A coordinator will run: the shippers keep {@code fence.lease.ms} at its default (auto: 2000 ms, since
     * {@code admin.token} is set), as in production. Without this they run no lease: no coordinator renews it or
     * promotes the standby, so a lease would only fence the primary while an applier restarts or stalls. Call it
     * before the shippers start.
     */
    Replication coordinated() throws IOException {
        coordinated = true;
        Properties shipping = new Properties();
        try (var reader = Files.newBufferedReader(shipperConfig)) {
            shipping.load(reader);
        }
        shipping.remove("fence.lease.ms");
        store(shipping, shipperConfig);
        return this;
    }

    /** Sets {@code key} in the applier's configuration file, for the applier started next. */
    void applierSetting(String key, String value) throws IOException {
        Properties applying = new Properties();
        try (var reader = Files.newBufferedReader(applierConfig)) {
            applying.load(reader);
        }
        applying.setProperty(key, value);
        store(applying, applierConfig);
    }

    RoleProcess coordinator() {
        return coordinator;
    }

    /**
     * Starts {@code rdmarepl coordinate} for members {@code pga} (the primary, with the shipper's admin endpoint) and
     * {@code pgb} (the replica, with the applier's), state in a file under the test's directory. Both roles must run.
     */
    RoleProcess startCoordinator(Map<String, String> extra) throws Exception {
        return startCoordinator("coordinator", extra);
    }

    /** Like {@link #startCoordinator(Map)}: one more coordinator named {@code label} (several share a ZooKeeper store). */
    RoleProcess startCoordinator(String label, Map<String, String> extra) throws Exception {
        Properties c = new Properties();
        c.setProperty("cluster.name", name);
        c.setProperty("coordinator.name", label);
        c.setProperty("members", "pga,pgb");
        c.setProperty("member.pga.jdbc.url", primary().jdbcUrl("postgres"));
        c.setProperty("member.pga.shipper.admin", adminBase(shipper));
        c.setProperty("member.pgb.jdbc.url", replica().jdbcUrl("postgres"));
        c.setProperty("member.pgb.applier.admin", adminBase(applier));
        if (reverseShipper != null) {
            c.setProperty("member.pga.applier.admin", adminBase(reverseApplier));
            c.setProperty("member.pgb.shipper.admin", adminBase(reverseShipper));
        }
        c.setProperty("initial.primary", "pga");
        c.setProperty("database.user", PostgresServer.SUPERUSER);
        c.setProperty("roles.admin.token", ROLES_TOKEN);
        c.setProperty("admin.address", "127.0.0.1:0");
        c.setProperty("admin.token", COORDINATOR_TOKEN);
        Path state = directory.resolve(label + "-state.json");
        Files.deleteIfExists(state); // a new cluster: nothing from an earlier run of the test
        c.setProperty("state.file", state.toString());
        extra.forEach(c::setProperty);
        Path file = directory.resolve(label + ".properties");
        store(c, file);
        RoleProcess started = start("coordinate", label, file);
        coordinators.add(started);
        coordinator = started;
        adminBase(started);
        return started;
    }

    /** http://host:port of {@code process}'s admin endpoint, once it printed it (deadline 60 s). */
    String adminBase(RoleProcess process) throws InterruptedException {
        Await.until(process.label() + " printed its admin endpoint", Duration.ofSeconds(60), () -> {
            if (process.statusUrl() == null && !process.isAlive()) {
                throw new AssertionError(process.label() + " exited before serving its admin endpoint\n" + process.tail());
            }
            return process.statusUrl() != null;
        }, process::tail);
        String status = process.statusUrl();
        return status.substring(0, status.length() - "/status".length());
    }

    /**
     * Starts the applier and waits until it serves its admin endpoint, which it does once its ring exists: a shipper
     * started before that would attach to the ring a killed applier left behind.
     */
    RoleProcess startApplier() throws InterruptedException {
        applier = start("apply", "applier", applierConfig);
        adminBase(applier);
        return applier;
    }

    RoleProcess startShipper() {
        shipper = start("ship", "shipper", shipperConfig);
        return shipper;
    }

    /**
     * Starts the roles of the reverse direction, both waiting for the coordinator ({@code activation=on-request}): an
     * applier that would keep the primary a standby of the replica, and a shipper beside the replica feeding it. A
     * switchover or rejoin activates them; {@link #startCoordinator} then names them in the members' configuration.
     */
    void startReverseRoles() throws Exception {
        Path reverseRing = Path.of(ring + "-reverse");
        String reverseUri = ringUri.startsWith("softrdma") ? "softrdma://127.0.0.1:" + RoleConfigs.freePort() : "shm://" + reverseRing;
        Properties shipping = RoleConfigs.shipper("replica", replica(), "primary", reverseUri, ROLES_TOKEN);
        shipping.setProperty("activation", "on-request");
        shipping.setProperty("fence.lease.dir", directory.toString());
        if (coordinated) {
            shipping.remove("fence.lease.ms");
        }
        Path shippingFile = directory.resolve("reverse-shipper.properties");
        store(shipping, shippingFile);
        Properties applying = RoleConfigs.applier("replica", reverseUri, primary(), ROLES_TOKEN);
        applying.setProperty("activation", "on-request");
        Path applyingFile = directory.resolve("reverse-applier.properties");
        store(applying, applyingFile);
        reverseApplier = start("apply", "reverse-applier", applyingFile);
        adminBase(reverseApplier);
        reverseShipper = start("ship", "reverse-shipper", shippingFile);
        adminBase(reverseShipper);
    }

    /** Starts the applier, then the shipper, and waits until the shipper's slot streams. */
    void startBoth() throws Exception {
        startApplier();
        startShipper();
        awaitSlotActive();
    }

    /** Waits until the shipper's replication slot exists and a walsender streams from it. */
    void awaitSlotActive() throws Exception {
        Await.until("the shipper's replication slot active", Duration.ofSeconds(60), () -> {
            try (Connection c = primary().connect("postgres"); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = 'rdmarepl'")) {
                if (rs.next() && rs.getBoolean(1)) {
                    return true;
                }
            }
            checkAlive();
            return false;
        }, this::tails);
    }

    /** Waits until the replica holds at least {@code count} history rows of committed transactions. */
    void awaitReplicaProgress(long transactions, Duration timeout) throws Exception {
        AtomicLong seen = new AtomicLong();
        Await.until("the replica applied " + transactions + " transactions", timeout, () -> {
            seen.set(queryLong(replica(), "SELECT count(DISTINCT tx) FROM history"));
            if (seen.get() >= transactions) {
                return true;
            }
            checkAlive();
            return false;
        }, () -> seen + " transactions\n" + diagnostics());
    }

    /**
     * Inserts a new marker row on the primary and waits (deadline {@link #CATCH_UP_TIMEOUT}) until the replica holds it:
     * commit order is preserved, so the replica then holds everything committed before it.
     */
    void awaitCaughtUp() throws Exception {
        long marker = nextMarker++;
        Workload.mark(primary(), marker);
        Await.until("the replica holds marker " + marker + ", committed on the primary", CATCH_UP_TIMEOUT, () -> {
            if (queryLong(replica(), "SELECT count(*) FROM marker WHERE id = " + marker) == 1) {
                return true;
            }
            checkAlive();
            return false;
        }, this::diagnostics);
    }

    /**
     * {@link #awaitCaughtUp()}, after the shipper read the primary's sequences afresh: a marker says every
     * transaction before it was applied, but sequence states are read apart from the stream, every
     * {@code sequence.sync.interval.ms}. Two readings completed after this call include one begun after it; its
     * changed states go out ahead of the marker's transaction, so the replica then holds every sequence as the
     * primary had it at this call.
     */
    void awaitSequencesCaughtUp() throws Exception {
        long before = shipperSequenceReadings();
        Await.until("two readings of the primary's sequences after " + before, CATCH_UP_TIMEOUT, () -> {
            checkAlive();
            return shipperSequenceReadings() >= before + 2;
        }, this::diagnostics);
        awaitCaughtUp();
    }

    /** How many readings of the primary's sequences the shipper completed ({@code /status} sequences.syncs). */
    private long shipperSequenceReadings() {
        Matcher syncs = Pattern.compile("\"syncs\"\\s*:\\s*(\\d+)").matcher(RoleProcess.statusLine(shipper));
        if (!syncs.find()) {
            throw new IllegalStateException("no sequences.syncs in the shipper's /status");
        }
        return Long.parseLong(syncs.group(1));
    }

    /** Fails with the process's log when the shipper or the applier is not running. */
    void checkAlive() {
        for (RoleProcess process : new RoleProcess[] {applier, shipper}) {
            if (process != null && !process.isAlive()) {
                throw new AssertionError(process.label() + " exited unexpectedly\n" + tails());
            }
        }
    }

    /**
     * Replica = primary: every table and sequence of the primary's schemas (rdmarepl's own left out), each column's
     * exact text, rows as multisets; every difference named by table, key and column.
     */
    ComparisonReport compare() throws SQLException {
        return ReplicaComparison.between(primary(), replica()).run();
    }

    /** Tails of both processes' logs and their /status. */
    String diagnostics() {
        return tails() + RoleProcess.statusLine(applier) + RoleProcess.statusLine(shipper);
    }

    String tails() {
        StringBuilder out = new StringBuilder();
        for (RoleProcess process : new RoleProcess[] {applier, shipper, reverseApplier, reverseShipper}) {
            if (process != null) {
                out.append(process.tail());
            }
        }
        coordinators.forEach(c -> out.append(c.tail()));
        return out.toString();
    }

    /** SIGTERM both processes (applier last: the shipper drains into its ring), then stop the servers. */
    @Override
    public void close() {
        try {
            for (RoleProcess process : coordinators) {
                process.stop(STOP_TIMEOUT);
            }
            for (RoleProcess process : new RoleProcess[] {shipper, reverseShipper, applier, reverseApplier}) {
                if (process != null) {
                    process.stop(STOP_TIMEOUT);
                }
            }
        } finally {
            LeaseGuards.killLeftIn(directory);
            try {
                Files.deleteIfExists(ring);
                Files.deleteIfExists(Path.of(ring + "-reverse"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                servers.close();
            }
        }
    }

    private RoleProcess start(String role, String label, Path config) {
        int n = starts.merge(label, 1, Integer::sum);
        return RoleProcess.start(role, label + " #" + n, config, directory.resolve(label + "-" + n + ".log"));
    }

    private void writeConfigs() throws IOException {
        Properties shipping = RoleConfigs.shipper("primary", primary(), "replica", ringUri, ROLES_TOKEN);
        shipping.setProperty("fence.lease.dir", directory.toString()); // not /dev/shm: another test run may name its source alike
        store(shipping, shipperConfig);
        store(RoleConfigs.applier("primary", ringUri, replica(), ROLES_TOKEN), applierConfig);
    }

    private void store(Properties properties, Path file) throws IOException {
        RoleConfigs.store(properties, file, "rdmarepl end-to-end test " + name);
    }

    static long queryLong(PostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The applier's counts from its /status (applied, skipped as already applied, partial discarded...), for the log. */
    String applierCounts() {
        Matcher counts = Pattern.compile("\"counts\":\\{[^}]*}").matcher(RoleProcess.statusLine(applier));
        return counts.find() ? counts.group() : "(no applier status)";
    }
}
