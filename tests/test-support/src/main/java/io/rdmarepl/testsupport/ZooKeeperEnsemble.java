package io.rdmarepl.testsupport;

import io.rdmarepl.testsupport.net.NetHost;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A ZooKeeper ensemble of separate server processes ({@code org.apache.zookeeper.server.quorum.QuorumPeerMain}, the
 * server a ZooKeeper installation runs, from this JVM's class path: the Maven artifacts curator-test brings), each on a
 * {@link NetHost} of its own at ports 2181 (clients), 2888 (quorum) and 3888 (election) of the host's address, or all
 * on 127.0.0.1 at free ports. Unlike curator-test's in-JVM {@code TestingCluster}, a network cut separates its servers
 * as it separates real ones, and {@link #suspend} freezes one (SIGSTOP: its sockets stay open and silent, as behind a
 * partition). Timing is a {@link Timing}: the ZooKeeper distribution's sample configuration by default.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {
    /** Processes still running when this JVM exits (a test that failed hard) are killed with it. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "zookeeper-ensemble-killer"));
    }

    /**
     * A server's timing, as in {@code zoo.cfg}: a follower that hears nothing from its leader for {@code syncLimit}
     * ticks (and a leader whose quorum stops acknowledging for as long) stops serving clients; sessions last 2 to 20
     * ticks.
     */
    public record Timing(int tickTimeMs, int initLimit, int syncLimit) {
        /** {@code conf/zoo_sample.cfg} of the ZooKeeper distribution, what most installations start from. */
        public static final Timing SAMPLE = new Timing(2000, 10, 5);
        /** The official {@code zookeeper} container image's defaults (the deployment kit's compose file runs it). */
        public static final Timing CONTAINER = new Timing(2000, 5, 2);

        /** How long a follower cut off from its leader goes on answering its clients: syncLimit ticks. */
        public Duration followerPatience() {
            return Duration.ofMillis((long) tickTimeMs * syncLimit);
        }
    }

    /** One server: where it runs and listens, its process. */
    public record Server(int id, NetHost host, String address, int clientPort, Process process, Path logFile) {
        public String connectString() {
            return address + ":" + clientPort;
        }

        @Override
        public String toString() {
            return "zk" + id + " (" + connectString() + (host == null ? "" : " on " + host.name()) + ", pid " + process.pid() + ")";
        }
    }

    private final List<Server> servers;
    private final Timing timing;
    private final boolean leaderServes;

    private ZooKeeperEnsemble(List<Server> servers, Timing timing, boolean leaderServes) {
        this.servers = List.copyOf(servers);
        this.timing = timing;
        this.leaderServes = leaderServes;
    }

    /**
     * One server on each of {@code hosts} (server ids 1..n in that order), started; waits until they form a quorum. With
     * {@code leaderServes} false ({@code leaderServes=no}, a documented server option) clients are served by followers
     * only, so a client cut off with its server is always cut off with a follower.
     */
    public static ZooKeeperEnsemble start(Path directory, List<NetHost> hosts, Timing timing, boolean leaderServes) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (NetHost host : hosts) {
            endpoints.add(new Endpoint(host, host.address(), 2181, 2888, 3888));
        }
        return startAll(directory, endpoints, timing, leaderServes);
    }

    /** {@code size} servers on 127.0.0.1 at free ports, in this JVM's network namespace; waits for the quorum. */
    public static ZooKeeperEnsemble startLocal(Path directory, int size, Timing timing) {
        List<Endpoint> endpoints = new ArrayList<>();
        try {
            for (int i = 0; i < size; i++) {
                endpoints.add(new Endpoint(null, "127.0.0.1", FreePorts.next("127.0.0.1"), FreePorts.next("127.0.0.1"),
                        FreePorts.next("127.0.0.1")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for a ZooKeeper server", e);
        }
        return startAll(directory, endpoints, timing, true);
    }

    private record Endpoint(NetHost host, String address, int clientPort, int quorumPort, int electionPort) {
    }

    private static ZooKeeperEnsemble startAll(Path directory, List<Endpoint> endpoints, Timing timing, boolean leaderServes) {
        String members = IntStream.range(0, endpoints.size()).mapToObj(i -> "server." + (i + 1) + "=" + endpoints.get(i).address()
                + ":" + endpoints.get(i).quorumPort() + ":" + endpoints.get(i).electionPort()).collect(Collectors.joining("\n"));
        List<Server> started = new ArrayList<>();
        try {
            for (int i = 0; i < endpoints.size(); i++) {
                started.add(startServer(directory, i + 1, endpoints.get(i), members, timing, leaderServes));
            }
            ZooKeeperEnsemble ensemble = new ZooKeeperEnsemble(started, timing, leaderServes);
            ensemble.awaitQuorum(START_TIMEOUT);
            return ensemble;
        } catch (RuntimeException | Error e) {
            new ZooKeeperEnsemble(started, timing, leaderServes).close();
            throw e;
        }
    }

    private static Server startServer(Path directory, int id, Endpoint endpoint, String members, Timing timing, boolean leaderServes) {
        try {
            Path data = directory.resolve("zk" + id);
            if (Files.exists(data)) {
                try (var old = Files.walk(data)) {
                    old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Files.createDirectories(data);
            Files.writeString(data.resolve("myid"), id + "\n");
            Path config = directory.resolve("zk" + id + ".cfg");
            Files.writeString(config, "tickTime=" + timing.tickTimeMs() + "\n"
                    + "initLimit=" + timing.initLimit() + "\n"
                    + "syncLimit=" + timing.syncLimit() + "\n"
                    + "dataDir=" + data + "\n"
                    + "clientPort=" + endpoint.clientPort() + "\n"
                    + "clientPortAddress=" + endpoint.address() + "\n"
                    + "admin.enableServer=false\n"
                    + "4lw.commands.whitelist=srvr\n"
                    + "standaloneEnabled=false\n"
                    + "leaderServes=" + (leaderServes ? "yes" : "no") + "\n"
                    + members + "\n");
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-cp", System.getProperty("java.class.path"),
                    "org.apache.zookeeper.server.quorum.QuorumPeerMain", config.toString());
            Path log = directory.resolve("zk" + id + ".log");
            Files.deleteIfExists(log);
            ProcessBuilder builder = endpoint.host() == null ? new ProcessBuilder(command) : endpoint.host().processBuilder(command);
            Process process = builder.redirectErrorStream(true).redirectOutput(Redirect.appendTo(log.toFile())).start();
            LIVE.add(process);
            process.onExit().thenRun(() -> LIVE.remove(process));
            return new Server(id, endpoint.host(), endpoint.address(), endpoint.clientPort(), process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ZooKeeper server " + id, e);
        }
    }

    public List<Server> servers() {
        return servers;
    }

    /** Server {@code id} (1-based). */
    public Server server(int id) {
        return servers.get(id - 1);
    }

    /** The server listening at {@code address} (a host's address), if any. */
    public java.util.Optional<Server> serverAt(String address) {
        return servers.stream().filter(s -> s.address().equals(address)).findFirst();
    }

    public Timing timing() {
        return timing;
    }

    /** Every server, e.g. {@code 10.213.40.6:2181,10.213.40.7:2181,10.213.40.8:2181}. */
    public String connectString() {
        return servers.stream().map(Server::connectString).collect(Collectors.joining(","));
    }

    /**
     * What the server says of itself ({@code srvr}): "leader", "follower", or "not serving" (it has no quorum, is
     * electing, or leads with {@code leaderServes=no}), "unreachable: ..." when it does not answer within 1 s.
     */
    public String mode(Server server) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.address(), server.clientPort()), 1000);
            socket.setSoTimeout(1000);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : answer.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).trim();
                }
            }
            return "not serving";
        } catch (IOException e) {
            return "unreachable: " + e.getMessage();
        }
    }

    /** Waits until one server leads and every other follows (a leader that serves no clients says nothing: not asked). */
    public void awaitQuorum(Duration timeout) {
        Await.until("ZooKeeper servers " + servers + " form a quorum (one leader, the others following)", timeout, () -> {
            for (Server server : servers) {
                if (!server.process().isAlive()) {
                    throw new AssertionError(server + " exited: see " + server.logFile());
                }
            }
            List<String> modes = servers.stream().map(this::mode).toList();
            return (!leaderServes || modes.stream().filter("leader"::equals).count() == 1)
                    && modes.stream().filter("follower"::equals).count() == servers.size() - 1;
        }, () -> servers.stream().map(s -> s + " " + mode(s)).toList());
    }


    /** SIGSTOP: the server freezes with its connections open, as a server behind a partition looks to the others. */
    public void suspend(Server server) {
        signal(server, "STOP");
    }

    /** SIGCONT after {@link #suspend}. */
    public void resume(Server server) {
        signal(server, "CONT");
    }

    private static void signal(Server server, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(server.process().pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + server + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot signal " + server, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + server, e);
        }
    }

    /** Kills every server (a suspended one too). */
    @Override
    public void close() {
        for (Server server : servers) {
            server.process().destroyForcibly();
        }
        for (Server server : servers) {
            try {
                server.process().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper ensemble " + servers;
    }
}
