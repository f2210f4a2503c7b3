package io.rdmarepl.coordinator.store;

import io.rdmarepl.coordinator.state.ClusterState;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store for several coordinators: the state JSON in the znode {@code /rdmarepl/<cluster>/state}, its
 * version the znode's version, leadership a Curator {@link LeaderLatch} at {@code /rdmarepl/<cluster>/leader}.
 *
 * <p>Three guards, for three different failures:
 * <ul>
 *   <li>{@link #isLeader()} turns false the moment the connection is SUSPENDED or LOST, so a coordinator cut
 *       off from ZooKeeper stops acting at once instead of when its session finally expires (by then another
 *       coordinator may lead).</li>
 *   <li>{@link #isLeader()} also turns false when the quorum has not answered a {@code sync} for half the session
 *       timeout ({@link QuorumContact}): a server cut off into a minority keeps the connection alive for
 *       {@code syncLimit} ticks (10 s with the sample {@code zoo.cfg}), longer than the majority takes to expire this
 *       coordinator's session and elect another. {@link #knownAsOfNs()} is that last answer too: what a server
 *       without its quorum lets this coordinator read is no fresher.</li>
 *   <li>{@link #compareAndSet} is a conditional write checked by the ZooKeeper server itself, so it is correct
 *       even when a leader acts on a stale belief: it does not consult leadership at all (callers do), and of
 *       two writers that read the same version exactly one wins.</li>
 * </ul>
 *
 * <p>{@link #read()} is answered by the client's own ZooKeeper server, which may lag the quorum for a moment; a
 * decision made on such a read can only lose its compare-and-set, never overwrite a newer state.
 *
 * <p>A write whose reply is lost (connection dropped after the server applied it) is retried, finds the version
 * moved and returns {@link #NOTHING_STORED}; the caller re-reads and finds its own state, as after a lost race.
 */
public final class ZooKeeperStateStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperStateStore.class);
    private static final int RETRY_SLEEP_MS = 100;

    private final ZooKeeperStoreSettings settings;
    private final CuratorFramework client;
    private final LeaderLatch latch;
    private final String source;
    private final QuorumContact contact;
    private final Thread contactThread;
    private volatile boolean connected;
    private volatile boolean closed;
    /** A sync is on its way, sent at {@code askedNs} (System.nanoTime()); its answer comes on Curator's thread. */
    private volatile boolean asking;
    private volatile long askedNs;
    /** The contact thread said that this leader stops acting, and has not said that the quorum answers again. */
    private boolean warnedSilent;

    private ZooKeeperStateStore(ZooKeeperStoreSettings settings, CuratorFramework client) {
        this.settings = settings;
        this.client = client;
        this.latch = new LeaderLatch(client, settings.leaderPath(), settings.coordinatorName());
        this.source = "znode " + settings.statePath() + " at ZooKeeper " + settings.connectString();
        this.contact = new QuorumContact(settings.sessionTimeoutMs() / 2, System::nanoTime);
        this.contactThread = new Thread(this::keepInContact, "rdmarepl-zookeeper-quorum");
        contactThread.setDaemon(true);
    }

    /**
     * Connects, then joins the leader election (leadership follows asynchronously; see {@link #isLeader()}).
     *
     * @throws StateStoreException naming the connect string when ZooKeeper is not reachable within the
     *                             connection timeout
     */
    public static ZooKeeperStateStore open(ZooKeeperStoreSettings settings) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(settings.connectString())
                .sessionTimeoutMs(settings.sessionTimeoutMs())
                .connectionTimeoutMs(settings.connectionTimeoutMs())
                // a read or write during an outage fails after about two connection timeouts (one waiting for a
                // connection, one retrying) plus the client's last reconnect attempt, instead of minutes of backoff
                .retryPolicy(new RetryUntilElapsed(settings.connectionTimeoutMs(), RETRY_SLEEP_MS))
                .build();
        ZooKeeperStateStore store = new ZooKeeperStateStore(settings, client);
        store.start();
        return store;
    }

    private void start() {
        // registered before start() so that the first CONNECTED is seen too
        client.getConnectionStateListenable().addListener((c, state) -> onConnectionStateChanged(state));
        latch.addListener(new LeadershipLog());
        client.start();
        try {
            if (!client.blockUntilConnected(settings.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
                throw new StateStoreException("ZooKeeper at " + settings.connectString() + " is unreachable: no connection within "
                        + settings.connectionTimeoutMs() + " ms (connection timeout)");
            }
            contact.limitTo(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
            contactThread.start();
            latch.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new StateStoreException("interrupted while connecting to ZooKeeper at " + settings.connectString(), e);
        } catch (StateStoreException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new StateStoreException("cannot join the leader election at " + settings.leaderPath() + " on ZooKeeper "
                    + settings.connectString() + ": " + e, e);
        }
    }

    private void onConnectionStateChanged(ConnectionState state) {
        boolean usable = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
        // not isLeader(): the ZooKeeper client already reports the connection down by the time we hear of it
        boolean wasLeader = connected && latch.hasLeadership();
        connected = usable;
        if (!usable) {
            LOG.warn("connection to ZooKeeper at {} is {}{}", settings.connectString(), state,
                    wasLeader ? ": " + settings.coordinatorName() + " stops acting as leader until it reconnects" : "");
        } else if (state == ConnectionState.RECONNECTED) {
            LOG.info("reconnected to ZooKeeper at {}", settings.connectString());
        }
    }

    /**
     * Asks the quorum every {@link QuorumContact#intervalNs()} (a {@code sync}, answered only through the ensemble's
     * leader), one question at a time unless one went unanswered for a whole window; logs once when the answers stop
     * while this coordinator holds the latch, and once when they come back.
     */
    private void keepInContact() {
        while (!closed) {
            long nowNs = System.nanoTime();
            if (!asking || nowNs - askedNs > TimeUnit.MILLISECONDS.toNanos(contact.windowMs())) {
                ask(nowNs);
            }
            boolean silent = !contact.recent();
            if (silent && !warnedSilent && connected && latch.hasLeadership()) {
                warnedSilent = true;
                LOG.warn("the ZooKeeper quorum has not answered {} for {} ms (half the session timeout): it stops acting as leader"
                        + " until the quorum answers", settings.coordinatorName(), contact.silentMs());
            } else if (!silent && warnedSilent) {
                warnedSilent = false;
                LOG.info("the ZooKeeper quorum answers {} again", settings.coordinatorName());
            }
            LockSupport.parkNanos(contact.intervalNs());
        }
    }

    private void ask(long sentNs) {
        asking = true;
        askedNs = sentNs;
        try {
            client.sync().inBackground((c, event) -> {
                if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
                    contact.answered(sentNs);
                }
                if (askedNs == sentNs) {
                    asking = false;
                }
            }).forPath(settings.basePath());
        } catch (Exception e) {
            asking = false; // closed meanwhile, or refused at once: the next round asks again
        }
    }

    /**
     * When the quorum last answered (System.nanoTime(), the moment the question was sent): what {@link #read()} returns
     * now is the cluster's state as of then at least. A server cut off from its quorum still answers reads.
     */
    @Override
    public long knownAsOfNs() {
        return contact.lastNs(Long.MIN_VALUE / 2);
    }

    @Override
    public Versioned<ClusterState> read() {
        checkOpen();
        Stat stat = new Stat();
        byte[] json;
        try {
            json = client.getData().storingStatIn(stat).forPath(settings.statePath());
        } catch (KeeperException.NoNodeException e) {
            return new Versioned<>(null, NOTHING_STORED);
        } catch (Exception e) {
            throw failure("read", e);
        }
        return new Versioned<>(ClusterStateJson.read(json, source), stat.getVersion());
    }

    /**
     * Creates the znode when {@code expectedVersion} is {@link #NOTHING_STORED}, otherwise writes it on the
     * condition that its version is still {@code expectedVersion}. Does not check {@link #isLeader()}. Every
     * ZooKeeper write is on a quorum's disks before it is acknowledged: {@code durability} changes nothing.
     *
     * @return the znode's new version, or {@link #NOTHING_STORED} when it already exists, has another version or
     * was deleted
     *
     * @throws IllegalArgumentException when {@code expectedVersion} can be no znode's version
     */
    @Override
    public long compareAndSet(long expectedVersion, ClusterState next, Durability durability) {
        Objects.requireNonNull(next, "next");
        if (expectedVersion < NOTHING_STORED || expectedVersion > Integer.MAX_VALUE) {
            // -1 must never reach setData(): to ZooKeeper it means "any version", an unconditional write
            throw new IllegalArgumentException("expected version " + expectedVersion + " of " + source
                    + " is out of range: " + NOTHING_STORED + " (nothing stored) or 0.." + Integer.MAX_VALUE);
        }
        checkOpen();
        byte[] json = ClusterStateJson.write(next);
        Stat stat = new Stat();
        try {
            if (expectedVersion == NOTHING_STORED) {
                client.create().storingStatIn(stat).creatingParentsIfNeeded().forPath(settings.statePath(), json);
            } else {
                stat = client.setData().withVersion((int) expectedVersion).forPath(settings.statePath(), json);
            }
            return stat.getVersion();
        } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException
                 | KeeperException.NoNodeException e) {
            return NOTHING_STORED;
        } catch (Exception e) {
            throw failure("write", e);
        }
    }

    /**
     * Holds the leader latch, is connected right now, and the quorum answered within half the session timeout. False
     * from the first SUSPENDED on (before the session expires and before the latch itself notices), and once the quorum
     * went silent for that long ({@link QuorumContact}); true again only after RECONNECTED with the latch held and an
     * answer from the quorum.
     */
    @Override
    public boolean isLeader() {
        return !closed
                && connectedNow()
                && contact.recent()
                && latch.hasLeadership();
    }

    /**
     * The last connection state heard of was usable and the client is connected now: the client reports a lost
     * connection before its SUSPENDED event reaches {@link #onConnectionStateChanged}, and what this store says of
     * itself must not lag behind what {@link #isLeader} already acts on.
     */
    private boolean connectedNow() {
        return connected && client.getZookeeperClient().isConnected();
    }

    @Override
    public String describe() {
        String role = closed ? "closed" : !connectedNow() ? "disconnected"
                : !contact.recent() ? "no answer from the quorum for " + contact.silentMs() + " ms"
                : isLeader() ? "leader" : "follower";
        return "zookeeper " + settings.connectString() + " " + settings.basePath() + " as "
                + settings.coordinatorName() + " (" + role + ")";
    }

    /** Leaves the election (the next coordinator takes over at once), then disconnects. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        contactThread.interrupt();
        try {
            if (latch.getState() == LeaderLatch.State.STARTED) {
                latch.close();
            }
        } catch (IOException | RuntimeException e) {
            // the latch node is ephemeral: at worst it goes with the session
            LOG.debug("leaving the leader election at {} failed", settings.leaderPath(), e);
        } finally {
            client.close();
        }
    }

    public ZooKeeperStoreSettings settings() {
        return settings;
    }

    /** The Curator client, for tests that expire the session the way a long partition would. */
    CuratorFramework curator() {
        return client;
    }

    private void checkOpen() {
        if (closed) {
            throw new StateStoreException("cannot use " + source + ": this store is closed");
        }
    }

    private StateStoreException failure(String action, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new StateStoreException("cannot " + action + " " + source + ": " + e, e);
    }

    /** Leadership changes are rare and decisive: one line each. */
    private final class LeadershipLog implements LeaderLatchListener {
        @Override
        public void isLeader() {
            LOG.info("{} is now the leader of {}", settings.coordinatorName(), settings.basePath());
        }

        @Override
        public void notLeader() {
            LOG.info("{} is no longer the leader of {}", settings.coordinatorName(), settings.basePath());
        }
    }
}
