package io.rdmarepl.harness.bench;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import io.rdmarepl.testsupport.cluster.HostCluster;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import io.rdmarepl.testsupport.net.NetworkNamespaces;
import io.rdmarepl.testsupport.net.SystemCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code rdmarepl bench failover --layout hosts}: each trial on a {@link HostCluster} of its own, the roles as
 * separate processes (the JVM's default options, as the packaged systemd units run them) on network-namespace hosts,
 * and the machine's CPUs split as two machines would have them:
 * <pre>
 *   CPU 0 (the primary's host a):  PostgreSQL a, rdmarepl ship (and its lease guard), the reverse applier (idle)
 *   CPU 1 (everything else):       PostgreSQL b, rdmarepl apply, the reverse shipper (idle), host coordinator's
 *                                  rdmarepl coordinate, and this JVM: the client and its checks
 * </pre>
 * "CPU 0" and "CPU 1" are the first two CPUs this process may run on. A host's CPU is given with {@code taskset -c}
 * (CPU affinity, which works the same under cgroup v1 and v2, and is inherited: a host's PostgreSQL children and a
 * role's lease guard stay on it); this JVM moves itself, every thread, to CPU 1 before the first trial and back to
 * the CPUs it had at the end. So the kill of the primary, whose teardown took most of both vCPUs for tens of
 * milliseconds when everything shared them, happens on a CPU of its own, as when the primary's machine dies.
 */
final class HostsLayout implements AutoCloseable {
    static final String PRIMARY = "a";
    static final String STANDBY = "b";
    private static final Duration QUIET_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REHEARSAL_TIMEOUT = Duration.ofSeconds(60);
    static final String REHEARSAL = "a planned switchover to b and back to a before each kill: the failover paths warm";

    private final String primaryCpu;
    private final String otherCpu;
    /** The CPUs this process could run on before, given back by {@link #close()}. */
    private final String allowedBefore;

    private HostsLayout(String primaryCpu, String otherCpu, String allowedBefore) {
        this.primaryCpu = primaryCpu;
        this.otherCpu = otherCpu;
        this.allowedBefore = allowedBefore;
    }

    /**
     * Checks that the layout can run here and moves this JVM to the second CPU.
     *
     * @return the layout, or empty with {@code why} holding one line saying why it cannot run here
     */
    static Optional<HostsLayout> prepare(StringBuilder why) {
        List<Integer> cpus = allowedCpus();
        if (cpus.size() < 2) {
            why.append("needs 2 CPUs, this process may use ").append(cpus.isEmpty() ? "an unknown number" : cpus.size() + " " + cpus)
                    .append(" (/proc/self/status Cpus_allowed_list)");
            return Optional.empty();
        }
        Optional<String> namespaces = NetworkNamespaces.unavailableReason();
        if (namespaces.isPresent()) {
            why.append(namespaces.get().replace("network-namespace tests skipped", "needs network namespaces"));
            return Optional.empty();
        }
        HostsLayout layout = new HostsLayout(Integer.toString(cpus.get(0)), Integer.toString(cpus.get(1)),
                String.join(",", cpus.stream().map(String::valueOf).toList()));
        SystemCommand.Result pinned = SystemCommand.attempt(List.of("taskset", "-a", "-p", "-c", layout.otherCpu,
                Long.toString(ProcessHandle.current().pid())));
        if (!pinned.succeeded()) {
            why.append("needs taskset (util-linux) to give each host its CPU: `taskset -a -p -c ").append(layout.otherCpu)
                    .append("` failed: ").append(pinned.firstLine());
            return Optional.empty();
        }
        return Optional.of(layout);
    }

    /** This JVM back on the CPUs it had (it may go on: the tests run the benchmark in their JVM). */
    @Override
    public void close() {
        SystemCommand.attempt(List.of("taskset", "-a", "-p", "-c", allowedBefore, Long.toString(ProcessHandle.current().pid())));
    }

    /** e.g. "CPU 0: PostgreSQL a and its shipper; CPU 1: PostgreSQL b, applier, coordinator, client". */
    String describe() {
        return "CPU " + primaryCpu + ": PostgreSQL a and its shipper; CPU " + otherCpu + ": PostgreSQL b, applier, coordinator, client";
    }

    Map<String, Object> toMap() {
        return Map.of("primary_host_cpu", Integer.parseInt(primaryCpu), "other_cpu", Integer.parseInt(otherCpu));
    }

    /** A new directory for a trial's cluster under {@code parent} (null: the system's temporary directory). */
    Path newDirectory(int trial, Path parent) {
        try {
            return parent == null ? Files.createTempDirectory("rdmarepl-bench-hosts-" + trial + "-")
                    : Files.createTempDirectory(parent, "rdmarepl-bench-hosts-" + trial + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the cluster's directory: " + e.getMessage(), e);
        }
    }

    /**
     * Starts a cluster with its configurations and role logs in {@code directory}, its roles with {@code jvmOptions} (empty:
     * the JVM's defaults, {@link RoleProcess#DEFAULT_JVM}), its servers durable (fsync on), each
     * role once the one before it is quiet; waits until its coordinator reports HEALTHY and its roles are quiet (done
     * compiling their start, as long before a failover in production).
     */
    HostCluster start(Path directory, List<String> jvmOptions, Map<String, String> shipperSettings, Map<String, String> applierSettings)
            throws Exception {
        HostCluster cluster = HostCluster.builder(directory.getFileName().toString()).directory(directory).durability(Durability.DURABLE)
                .jvmOptions(jvmOptions).shipperSettings(shipperSettings).applierSettings(applierSettings).settle(true)
                .cpus(PRIMARY, primaryCpu).cpus(STANDBY, otherCpu).cpus("coordinator", otherCpu).start();
        cluster.awaitQuiet(QUIET_TIMEOUT);
        return cluster;
    }

    /**
     * {@code --rehearse}: a planned switchover to b, a's rejoin, a switchover back to a and b's rejoin, then the roles left
     * to settle; the cluster is as before (a primary, b its standby), at epoch 3, its roles having run fence, drain,
     * epoch, promotion and rejoin once.
     */
    static void rehearse(HostCluster cluster) throws Exception {
        for (String to : List.of(STANDBY, PRIMARY)) {
            CoordinatorHttp coordinator = cluster.coordinator();
            HttpResponse<String> answer = coordinator.post("/switchover", "{\"to\":\"" + to + "\"}",
                    HostCluster.COORDINATOR_TOKEN);
            if (answer.statusCode() != 200 || !answer.body().contains("\"switched\"")) {
                throw new IllegalStateException("rehearsal: the switchover to " + to + " answered " + answer.statusCode() + ": "
                        + answer.body());
            }
            Await.until("the rehearsal's switchover to " + to + " and the old primary's rejoin", REHEARSAL_TIMEOUT, coordinator::status,
                    status -> "HEALTHY".equals(status.path("phase").asText()) && to.equals(status.path("primary").asText()));
        }
        cluster.awaitQuiet(QUIET_TIMEOUT);
    }

    /** The CPUs this process may run on, from {@code /proc/self/status}; empty where that cannot be read. */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring("Cpus_allowed_list:".length()).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: unknown
        }
        return List.of();
    }

    /** "0-2,4" -> [0, 1, 2, 4]. */
    static List<Integer> parseCpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0].trim());
            int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }
}
