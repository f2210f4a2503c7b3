package io.rdmarepl.coordinator.store;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Ends a store's ZooKeeper session on the server, as a partition longer than the session timeout would: the
 * server deletes its ephemeral nodes (its leader latch) at once and its client gets "session expired".
 * Done the way ZooKeeper's own tests do it: a second client joins the session and closes it.
 */
final class Sessions {
    private Sessions() {
    }

    static void expire(ZooKeeperStateStore store, String connectString) throws Exception {
        ZooKeeper victim = store.curator().getZookeeperClient().getZooKeeper();
        CountDownLatch joined = new CountDownLatch(1);
        ZooKeeper killer = new ZooKeeper(connectString, 5000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                joined.countDown();
            }
        }, victim.getSessionId(), victim.getSessionPasswd());
        try {
            if (!joined.await(5, TimeUnit.SECONDS)) {
                throw new AssertionError("could not join session 0x" + Long.toHexString(victim.getSessionId()) + " within 5 s");
            }
        } finally {
            killer.close();
        }
    }
}
