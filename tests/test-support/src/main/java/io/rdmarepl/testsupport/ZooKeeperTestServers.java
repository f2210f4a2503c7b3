package io.rdmarepl.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.util.ServiceUtils;

/**
 * ZooKeeper for tests (curator-test), on ports below the ephemeral range ({@link FreePorts}). curator-test's own
 * random ports are ephemeral ones, and an embedded ZooKeeper server that cannot bind its port calls
 * {@code System.exit(2)}, which takes the whole test JVM down with it (seen on CI); here the ports are ones no
 * outgoing connection takes, and a server that fails to start fails its test instead.
 */
public final class ZooKeeperTestServers {
    private static final String HOST = "127.0.0.1";

    static {
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
    }

    private ZooKeeperTestServers() {
    }

    /** A started standalone server in a fresh temporary directory. */
    public static TestingServer server() throws Exception {
        return new TestingServer(spec(1), true);
    }

    /** An ensemble of {@code size} servers, not started yet. */
    public static TestingCluster cluster(int size) {
        List<InstanceSpec> specs = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            specs.add(spec(id));
        }
        return new TestingCluster(specs);
    }

    private static InstanceSpec spec(int serverId) {
        try {
            return new InstanceSpec(null, FreePorts.next(HOST), FreePorts.next(HOST), FreePorts.next(HOST), true, serverId);
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for a ZooKeeper test server", e);
        }
    }
}
