package io.rdmarepl.testsupport.cluster;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.ExampleConfigs;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ZooKeeperEnsemble;
import io.rdmarepl.testsupport.history.ClientWriter;
import io.rdmarepl.testsupport.net.NetHost;
import io.rdmarepl.testsupport.net.Network;
import io.rdmarepl.testsupport.net.NetworkNamespaces;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Members a and b and a coordinator, each on a host of its own (a network namespace of a {@link Network}), the roles
 * as separate processes started from the repository's example configurations ({@code config/}) with only host names,
 * the PostgreSQL ports and the state file changed: the example timeouts, lease ({@code fence.lease.ms=2000}) and
 * detection defaults are what runs.
 * <pre>
 *   host a:           PostgreSQL a, rdmarepl ship (a's changes to b), rdmarepl apply (reverse, on-request)
 *   host b:           PostgreSQL b, rdmarepl apply (a's ring, softrdma), rdmarepl ship (reverse, on-request)
 *   host coordinator: rdmarepl coordinate (state in a file)
 *   client:           the root namespace: the test, its writers and its checks
 * </pre>
 * Or, {@link #startOnZooKeeper}, with the state in ZooKeeper as {@code config/coordinator-zookeeper.properties} has it:
 * <pre>
 *   hosts zk1, zk2, zk3:   a ZooKeeper ensemble, one server each ({@link ZooKeeperEnsemble}), leaderServes=no
 *   hosts coord1, coord2:  rdmarepl coordinate (state.store=zookeeper), coord1 leading at the start
 * </pre>
 * Each role runs under a {@link SupervisedRole}, restarted after a failure as its systemd unit would restart it.
 * A sidecar reaches its own PostgreSQL at 127.0.0.1, as on one machine; everything else goes through the network, so
 * cutting a host cuts its PostgreSQL and its sidecars together. A host may be given CPUs of its own
 * ({@link Builder#cpus}): its PostgreSQL and roles run on those only, as on a machine of that size. Used by the
 * end-to-end partition tests and by {@code rdmarepl bench failover --layout hosts}.
 */
public final class HostCluster implements AutoCloseable {
    public static final String SCHEMA = ClientWriter.SCHEMA
            + ";\nCREATE TABLE marker (id bigint PRIMARY KEY, at timestamptz NOT NULL DEFAULT clock_timestamp())";
    public static final String ROLES_TOKEN = "rdmarepl-example-roles-token";
    public static final String COORDINATOR_TOKEN = "rdmarepl-example-coordinator-token";
    /** How long a failover may take at most in these clusters, partitions and ZooKeeper sessions included. */
    public static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(20);
    private static final long QUIET_WINDOW_MS = 250;
    public static final int SHIPPER_ADMIN = 7480;
    public static final int APPLIER_ADMIN = 9472;
    public static final int COORDINATOR_ADMIN = 7490;

    private final Path directory;
    private final Network network;
    private final Builder options;
    private final Map<String, NetHost> hosts = new LinkedHashMap<>();
    private final Map<String, PostgresServer> servers = new LinkedHashMap<>();
    private final List<SupervisedRole> processes = new ArrayList<>();
    private final Map<String, SupervisedRole> shippers = new LinkedHashMap<>();
    private final List<NetHost> coordinatorHosts = new ArrayList<>();
    private final List<CoordinatorHttp> coordinators = new ArrayList<>();
    /** The state store's ensemble; null when the state is in a file. */
    private ZooKeeperEnsemble zookeeper;

    private HostCluster(Path directory, Network network, Builder options) {
        this.directory = directory;
        this.network = network;
        this.options = options;
    }

    /** A cluster named {@code name} with the defaults; {@link Builder#start()} starts it. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Starts everything and waits until the coordinator reports HEALTHY with a the primary. {@code shipperSettings}
     * go into both shippers' configurations (sync mode, say); {@code serverSql} runs on both servers before the roles
     * start. Skips the calling test where namespaces are unavailable.
     */
    public static HostCluster start(String name, Map<String, String> shipperSettings, String serverSql) throws Exception {
        return builder(name).shipperSettings(shipperSettings).serverSql(serverSql).start();
    }

    /**
     * Like {@link #start(String, Map, String)}, with {@code coordinators} coordinators sharing their state in a ZooKeeper
     * ensemble of three servers timed as {@code timing}, every server and coordinator on a host of its own; the first
     * coordinator leads at the start, the others follow.
     */
    public static HostCluster startOnZooKeeper(String name, ZooKeeperEnsemble.Timing timing, int coordinators,
                                               Map<String, String> shipperSettings, String serverSql) throws Exception {
        return builder(name).zooKeeper(timing, coordinators).shipperSettings(shipperSettings).serverSql(serverSql).start();
    }

    /** The options of a cluster; {@link #start()} starts it. */
    public static final class Builder {
        private final String name;
        private Path directory;
        private Map<String, String> shipperSettings = Map.of();
        private Map<String, String> applierSettings = Map.of();
        private String serverSql = "";
        private ZooKeeperEnsemble.Timing zooKeeperTiming;
        private int coordinators = 1;
        private Durability durability = Durability.FAST;
        private final Map<String, String> cpus = new LinkedHashMap<>();
        private List<String> jvmOptions = RoleProcess.SMALL_JVM;
        private boolean settle;

        private Builder(String name) {
            this.name = name;
        }

        /** Where configurations, logs and leases go; default {@code target/e2e/<name>} under the working directory. */
        public Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        /** Settings of both shippers' configurations over the example's (sync mode, say). */
        public Builder shipperSettings(Map<String, String> shipperSettings) {
            this.shipperSettings = Map.copyOf(shipperSettings);
            return this;
        }

        /** Settings of every applier's configuration over the example's. */
        public Builder applierSettings(Map<String, String> applierSettings) {
            this.applierSettings = Map.copyOf(applierSettings);
            return this;
        }

        /** SQL run on both servers before the roles start, after {@link #SCHEMA}. */
        public Builder serverSql(String serverSql) {
            this.serverSql = serverSql;
            return this;
        }

        /** The coordinators' state in a ZooKeeper ensemble: see {@link #startOnZooKeeper}. */
        public Builder zooKeeper(ZooKeeperEnsemble.Timing timing, int coordinators) {
            this.zooKeeperTiming = timing;
            this.coordinators = coordinators;
            return this;
        }

        /** The servers' durability; default {@link Durability#FAST}. */
        public Builder durability(Durability durability) {
            this.durability = durability;
            return this;
        }

        /**
         * Host {@code host} ("a", "b", "coordinator", ...) runs on {@code cpus} only ({@code taskset -c}'s list): its
         * PostgreSQL, its roles and whatever they start. Default: any CPU.
         */
        public Builder cpus(String host, String cpus) {
            this.cpus.put(host, cpus);
            return this;
        }

        /** The roles' JVM options; default {@link RoleProcess#SMALL_JVM}. */
        public Builder jvmOptions(List<String> jvmOptions) {
            this.jvmOptions = List.copyOf(jvmOptions);
            return this;
        }

        /**
         * Each role started only once the one before it is quiet ({@link #awaitQuiet}): on a CPU or two, JVMs starting
         * at once (each compiling its start for a second or two) can hold a running role off its CPU for longer than the
         * shipper's lease. Default: off.
         */
        public Builder settle(boolean settle) {
            this.settle = settle;
            return this;
        }

        /**
         * Starts everything and waits until the coordinator reports HEALTHY with a the primary. Skips the calling test
         * (JUnit) where namespaces are unavailable: a caller that is no test asks
         * {@link NetworkNamespaces#unavailableReason()} first.
         */
        public HostCluster start() throws Exception {
            Path dir = (directory != null ? directory : Path.of("target", "e2e", name)).toAbsolutePath();
            Files.createDirectories(dir);
            // a fresh cluster starts at epoch 1, with new servers: what an earlier run's shippers kept (their epoch, a lease
            // a killed shipper left armed for another server's port) is not this cluster's; their guards are gone (close)
            for (String member : List.of("a", "b")) {
                for (String kept : List.of("rdmarepl-epoch-", "rdmarepl-lease-")) {
                    Files.deleteIfExists(dir.resolve(kept + member));
                    Files.deleteIfExists(dir.resolve(kept + member + ".lock"));
                }
            }
            Network network = Network.create();
            HostCluster cluster = new HostCluster(dir, network, this);
            try {
                cluster.startAll(shipperSettings, serverSql, zooKeeperTiming, coordinators);
                return cluster;
            } catch (Exception | AssertionError e) {
                cluster.close();
                throw e;
            }
        }
    }

    private void startAll(Map<String, String> shipperSettings, String serverSql, ZooKeeperEnsemble.Timing zooKeeperTiming,
                          int coordinatorCount) throws Exception {
        hosts.put("a", addHost("a"));
        hosts.put("b", addHost("b"));
        CompletableFuture<ZooKeeperEnsemble> ensemble = CompletableFuture.completedFuture(null);
        if (zooKeeperTiming == null) {
            coordinatorHosts.add(addHost("coordinator"));
        } else {
            List<NetHost> zooKeeperHosts = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                zooKeeperHosts.add(addHost("zk" + i));
            }
            for (int i = 1; i <= coordinatorCount; i++) {
                coordinatorHosts.add(addHost("coord" + i));
            }
            Path zooKeeperDirectory = Files.createDirectories(directory.resolve("zookeeper"));
            ensemble = CompletableFuture.supplyAsync(() -> ZooKeeperEnsemble.start(zooKeeperDirectory, zooKeeperHosts, zooKeeperTiming,
                    false)); // clients on followers: a coordinator cut off with its server is cut off with a follower
        }
        CompletableFuture<PostgresServer> a = CompletableFuture.supplyAsync(() -> startServer("a"));
        CompletableFuture<PostgresServer> b = CompletableFuture.supplyAsync(() -> startServer("b"));
        servers.put("a", a.join());
        servers.put("b", b.join());
        zookeeper = ensemble.join();
        servers.values().forEach(s -> s.execute(SCHEMA + (serverSql.isEmpty() ? "" : ";\n" + serverSql)));

        settled(start("apply", "applier-b", "b", role("applier.properties", "b", shipperSettings, false)));
        awaitAdmin("b", APPLIER_ADMIN);
        shippers.put("a", start("ship", "shipper-a", "a", role("shipper.properties", "a", shipperSettings, true)));
        Await.until("a's replication slot streams", START_TIMEOUT, () -> slotActive(servers.get("a")), Boolean::booleanValue);
        settled(shippers.get("a"));
        settled(start("apply", "applier-a", "a", role("reverse-applier.properties", "a", shipperSettings, false)));
        awaitAdmin("a", APPLIER_ADMIN);
        shippers.put("b", start("ship", "shipper-b", "b", role("reverse-shipper.properties", "b", shipperSettings, true)));
        awaitAdmin("b", SHIPPER_ADMIN);
        settled(shippers.get("b"));

        if (zookeeper == null) {
            Properties c = resolve(ExampleConfigs.read(example("coordinator.properties")), false);
            c.setProperty("cluster.name", "partition");
            c.setProperty("state.file", directory.resolve("coordinator-state.json").toString());
            Files.deleteIfExists(directory.resolve("coordinator-state.json"));
            startCoordinator("coordinator", coordinatorHosts.get(0), store(c, "coordinator.properties"), true);
            return;
        }
        for (int i = 1; i <= coordinatorHosts.size(); i++) {
            Properties c = resolve(ExampleConfigs.read(example("coordinator-zookeeper.properties")), false);
            c.setProperty("cluster.name", "partition");
            c.setProperty("coordinator.name", "coord" + i); // the default, the host name, is the same in every namespace
            c.setProperty("zookeeper.connect", zookeeper.connectString());
            // the first leads; each other one follows (its store is open once it answers)
            startCoordinator("coordinator-" + i, coordinatorHosts.get(i - 1), store(c, "coordinator-zookeeper-" + i + ".properties"), i == 1);
        }
    }

    /** With {@link Builder#settle}: waits until {@code role} is quiet. */
    private SupervisedRole settled(SupervisedRole role) {
        if (options.settle) {
            awaitQuiet(List.of(role), SETTLE_TIMEOUT);
        }
        return role;
    }

    /**
     * Waits until the role processes (with what they started: the lease guards) together use at most a tenth of a CPU,
     * over {@value #QUIET_WINDOW_MS} ms: their JVMs have compiled what starting them took, as they would have long before
     * a failover in production. Gives up after {@code timeout}.
     *
     * @return whether they were quiet within {@code timeout}
     */
    public boolean awaitQuiet(Duration timeout) {
        return awaitQuiet(processes, timeout);
    }

    private static boolean awaitQuiet(List<SupervisedRole> roles, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        long before = cpuNanos(roles);
        while (System.nanoTime() - deadlineNs < 0) {
            try {
                Thread.sleep(QUIET_WINDOW_MS); // the window the CPU time is measured over, not a wait for something
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            long after = cpuNanos(roles);
            if (after - before <= TimeUnit.MILLISECONDS.toNanos(QUIET_WINDOW_MS) / 10) {
                return true;
            }
            before = after;
        }
        return false;
    }

    /** CPU time the roles' processes and their descendants used so far. */
    private static long cpuNanos(List<SupervisedRole> roles) {
        long total = 0;
        for (SupervisedRole role : roles) {
            ProcessHandle process = ProcessHandle.of(role.current().pid()).orElse(null);
            if (process == null) {
                continue;
            }
            for (ProcessHandle p : Stream.concat(Stream.of(process), process.descendants()).toList()) {
                total += p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
            }
        }
        return total;
    }

    private NetHost addHost(String name) {
        return network.addHost(name, options.cpus.get(name));
    }

    private void startCoordinator(String label, NetHost host, Path config, boolean leads) throws Exception {
        start("coordinate", label, host, config);
        CoordinatorHttp http = new CoordinatorHttp("http://" + host.address() + ":" + COORDINATOR_ADMIN);
        coordinators.add(http);
        Await.until(label + " answers", START_TIMEOUT, () -> {
            checkAlive();
            return http.status();
        }, status -> !status.path("phase").asText().isEmpty() && status.path("leader").asBoolean() == leads);
        if (leads) {
            http.awaitPhase("HEALTHY", Duration.ofSeconds(30));
        }
    }

    public NetHost host(String member) {
        return hosts.get(member);
    }

    /** The (first) coordinator's host. */
    public NetHost coordinatorHost() {
        return coordinatorHosts.get(0);
    }

    /** Every coordinator's host, the first coordinator's first. */
    public List<NetHost> coordinatorHosts() {
        return List.copyOf(coordinatorHosts);
    }

    /** Every coordinator, in the order of {@link #coordinatorHosts()}. */
    public List<CoordinatorHttp> coordinators() {
        return List.copyOf(coordinators);
    }

    /** The ZooKeeper ensemble holding the coordinators' state; null when the state is in a file. */
    public ZooKeeperEnsemble zookeeper() {
        return zookeeper;
    }

    public Network network() {
        return network;
    }

    public PostgresServer server(String member) {
        return servers.get(member);
    }

    /**
     * The coordinator: with several, the one that leads (waited for until exactly one says it does, so each answer
     * comes from the one deciding).
     */
    public CoordinatorHttp coordinator() {
        if (coordinators.size() == 1) {
            return coordinators.get(0);
        }
        return Await.until("exactly one coordinator leads", FAILOVER_TIMEOUT, () -> {
            List<CoordinatorHttp> leading = new ArrayList<>();
            for (CoordinatorHttp c : coordinators) {
                try {
                    if (c.status().path("leader").asBoolean()) {
                        leading.add(c);
                    }
                } catch (IOException e) {
                    // a coordinator cut off from the client does not lead for it
                }
            }
            return leading;
        }, leading -> leading.size() == 1).get(0);
    }

    /** What an application's data source follows: every coordinator's admin endpoint, the first coordinator's first. */
    public List<String> coordinatorUrls() {
        return coordinators.stream().map(CoordinatorHttp::base).toList();
    }

    /** The shipper beside {@code member}'s PostgreSQL (b's waits for the coordinator until b is primary). */
    public RoleProcess shipper(String member) {
        return shippers.get(member).current();
    }

    /** The member whose host has {@code address}, e.g. what {@code inet_server_addr()} answered; else the address. */
    public String member(String address) {
        return hosts.entrySet().stream().filter(e -> e.getValue().address().equals(address)).map(Map.Entry::getKey)
                .findFirst().orElse(address);
    }

    /** The admin {@code /status} of {@code member}'s shipper, as the client reads it over the network. */
    public String shipperStatus(String member) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + host(member).address() + ":" + SHIPPER_ADMIN
                + "/status")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The admin {@code /status} of the applier beside {@code member}'s PostgreSQL, or what went wrong asking. */
    public String applierStatusOrError(String member) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + host(member).address() + ":"
                    + APPLIER_ADMIN + "/status")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "(no answer: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** Where this cluster keeps its configurations, logs and leases. */
    public Path directory() {
        return directory;
    }

    /** The leading coordinator's status, or what went wrong asking: for messages. */
    public String coordinatorStatusOrError() {
        try {
            return coordinator().status().toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        } catch (Exception | AssertionError e) {
            return "(no answer: " + e + ")"; // none leads, or the leader did not answer
        }
    }

    /** Like {@link #shipperStatus}, or what went wrong asking: for messages. */
    public String shipperStatusOrError(String member) {
        try {
            return shipperStatus(member);
        } catch (IOException e) {
            return "(no answer: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    /** While starting: fails when a role process exited (a bad configuration, say) rather than waiting for it. */
    public void checkAlive() {
        for (SupervisedRole process : processes) {
            if (!process.current().isAlive()) {
                throw new AssertionError(process.label() + " exited while the cluster started\n" + process.tail());
            }
        }
    }

    /** How often each role was restarted by its supervisor, e.g. "shipper-a 1", only those restarted. */
    public String restarts() {
        StringBuilder out = new StringBuilder();
        processes.stream().filter(p -> p.restarts() > 0).forEach(p -> out.append(out.length() == 0 ? "" : ", ")
                .append(p.label()).append(' ').append(p.restarts()));
        return out.length() == 0 ? "none" : out.toString();
    }

    public String tails() {
        StringBuilder out = new StringBuilder();
        processes.forEach(p -> out.append(p.tail()));
        return out.toString();
    }

    /** Stops the roles (coordinators first), ZooKeeper, the servers, then removes the network. */
    @Override
    public void close() {
        try {
            for (int i = processes.size() - 1; i >= 0; i--) {
                processes.get(i).stop(STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                killLeftOnMembers(); // a lease guard outlives its shipper on purpose
                if (zookeeper != null) {
                    zookeeper.close();
                }
                servers.values().forEach(PostgresServer::close);
            } finally {
                network.close();
            }
        }
    }

    /**
     * Kills what still runs on a member's host beside its PostgreSQL once the supervised roles are stopped: the lease
     * guards the shippers started (they outlive their shippers by design).
     */
    private void killLeftOnMembers() {
        Set<Long> servers = this.servers.values().stream().flatMap(s -> ProcessHandle.of(s.pid()).stream())
                .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                .map(ProcessHandle::pid).collect(Collectors.toSet());
        for (NetHost host : hosts.values()) {
            for (long pid : host.pids()) {
                if (!servers.contains(pid)) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    private PostgresServer startServer(String member) {
        return PostgresServer.builder("pg" + member).durability(options.durability).on(hosts.get(member)).start();
    }

    /** An example role configuration for a process on {@code member}'s host. */
    private Path role(String example, String member, Map<String, String> shipperSettings, boolean shipper) throws IOException {
        Properties p = resolve(ExampleConfigs.read(example(example)), true);
        if (p.containsKey("database.host")) {
            p.setProperty("database.host", "127.0.0.1");
            p.setProperty("database.port", Integer.toString(servers.get(member).port()));
        }
        if (shipper) {
            p.setProperty("fence.lease.dir", directory.toString()); // this cluster's guards only (see close)
            shipperSettings.forEach(p::setProperty);
        } else {
            options.applierSettings.forEach(p::setProperty);
        }
        return store(p, example.replace(".properties", "-" + member + ".properties"));
    }

    /**
     * The example's container names made addresses: a sidecar reaches its own PostgreSQL at 127.0.0.1
     * ({@code sidecar}), the coordinator reaches every PostgreSQL over the network; the roles' hosts by address.
     */
    private Properties resolve(Properties example, boolean sidecar) {
        Properties resolved = new Properties();
        example.forEach((key, value) -> {
            String v = (String) value;
            for (String m : hosts.keySet()) {
                String address = hosts.get(m).address();
                v = v.replace("pg-" + m + ":5432", (sidecar ? "127.0.0.1" : address) + ":" + servers.get(m).port())
                        .replace("applier-" + m + ":", address + ":")
                        .replace("shipper-" + m + ":", address + ":");
            }
            resolved.setProperty((String) key, v);
        });
        return resolved;
    }

    private static Path example(String name) {
        return ExampleConfigs.named(name).get(0);
    }

    private Path store(Properties properties, String file) throws IOException {
        Path path = directory.resolve(file);
        RoleConfigs.store(properties, path, "rdmarepl partition test, from config/ with addresses of the test network");
        return path;
    }

    private SupervisedRole start(String role, String label, String member, Path config) {
        return start(role, label, hosts.get(member), config);
    }

    private SupervisedRole start(String role, String label, NetHost host, Path config) {
        SupervisedRole process = new SupervisedRole(role, label, config, directory, host, options.jvmOptions);
        processes.add(process);
        return process;
    }

    private void awaitAdmin(String member, int port) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        URI health = URI.create("http://" + hosts.get(member).address() + ":" + port + "/health");
        Await.until(health + " answers", START_TIMEOUT, () -> {
            checkAlive();
            return http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        }, code -> code > 0);
    }

    private static boolean slotActive(PostgresServer server) throws Exception {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = 'rdmarepl'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
