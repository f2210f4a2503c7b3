package io.rdmarepl.coordinator.store;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.utils.PathUtils;

/**
 * Where and how a {@link ZooKeeperStateStore} connects.
 *
 * @param connectString       ZooKeeper servers, e.g. {@code zk1:2181,zk2:2181,zk3:2181}
 * @param cluster             the replicated cluster; its znodes live under {@code /rdmarepl/<cluster>}
 * @param coordinatorName     this coordinator's participant id in the leader election, e.g. its host name
 * @param sessionTimeoutMs    how long ZooKeeper keeps the session (and so the leadership) of a silent
 *                            coordinator; the server may clamp it to [2, 20] ticks
 * @param connectionTimeoutMs how long opening the store waits for a connection; a read or write during an
 *                            outage fails after about twice this
 */
public record ZooKeeperStoreSettings(String connectString, String cluster, String coordinatorName,
                                     int sessionTimeoutMs, int connectionTimeoutMs) {
    /** Short enough that a dead leader's session ends within seconds, long enough to ride out a GC pause. */
    public static final int DEFAULT_SESSION_TIMEOUT_MS = 5000;
    public static final int DEFAULT_CONNECTION_TIMEOUT_MS = 3000;
    public static final String ROOT = "/rdmarepl";

    /** @throws IllegalArgumentException listing every invalid value */
    public ZooKeeperStoreSettings {
        List<String> problems = new ArrayList<>();
        if (connectString == null || connectString.isBlank()) {
            problems.add("connectString is empty, expected host:port[,host:port...]");
        }
        if (cluster == null || cluster.isBlank() || cluster.contains("/")) {
            problems.add("cluster '" + cluster + "' must be a non-empty name without '/'");
        } else {
            try {
                PathUtils.validatePath(ROOT + "/" + cluster);
            } catch (IllegalArgumentException e) {
                problems.add("cluster '" + cluster + "' is not a valid znode name: " + e.getMessage());
            }
        }
        if (coordinatorName == null || coordinatorName.isBlank()) {
            problems.add("coordinatorName is empty, expected e.g. the host name");
        }
        if (sessionTimeoutMs <= 0) {
            problems.add("sessionTimeoutMs " + sessionTimeoutMs + " must be > 0");
        }
        if (connectionTimeoutMs <= 0) {
            problems.add("connectionTimeoutMs " + connectionTimeoutMs + " must be > 0");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid ZooKeeper state store settings: " + String.join("; ", problems));
        }
    }

    /** Settings with the default timeouts. */
    public static ZooKeeperStoreSettings of(String connectString, String cluster, String coordinatorName) {
        return new ZooKeeperStoreSettings(connectString, cluster, coordinatorName, DEFAULT_SESSION_TIMEOUT_MS,
                DEFAULT_CONNECTION_TIMEOUT_MS);
    }

    public ZooKeeperStoreSettings withTimeouts(int nextSessionTimeoutMs, int nextConnectionTimeoutMs) {
        return new ZooKeeperStoreSettings(connectString, cluster, coordinatorName, nextSessionTimeoutMs,
                nextConnectionTimeoutMs);
    }

    /** {@code /rdmarepl/<cluster>}: everything of this cluster lives below. */
    public String basePath() {
        return ROOT + "/" + cluster;
    }

    /** The znode holding the {@link io.rdmarepl.coordinator.state.ClusterState} JSON. */
    public String statePath() {
        return basePath() + "/state";
    }

    /** The parent of the leader latch's ephemeral sequential nodes. */
    public String leaderPath() {
        return basePath() + "/leader";
    }
}
