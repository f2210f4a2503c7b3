package io.rdmarepl.client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the coordinators' topology. A daemon thread long-polls one coordinator at a time (the one that
 * answered last), moving to the next when it fails, and backs off between rounds in which none answered.
 * {@link #refreshNow()} asks at once on a second thread, for clients that have just seen the primary fail:
 * the long poll only learns of a change when the coordinator publishes it.
 * <p>
 * Listeners are told of every newer version, in order. While no coordinator answers, the last topology stays
 * current: the servers may well be fine, and a fenced primary refuses writes anyway. But it is not used forever:
 * {@link TopologyFreshness} says when it was last confirmed by a coordinator that holds the cluster's state, and a
 * coordinator that answers from an old state (it lost ZooKeeper) counts as not answering, so the client asks the
 * next one.
 */
public final class TopologyClient implements AutoCloseable {
    /** Backoff between rounds of requests that no coordinator answered. */
    static final Duration RETRY_MIN = Duration.ofMillis(50);
    static final Duration RETRY_MAX = Duration.ofSeconds(1);
    /** A coordinator that returns an unchanged topology early (not holding the poll) is asked again after this. */
    static final Duration EARLY_ANSWER_PAUSE = RETRY_MIN;
    /** Refresh requests closer together than this are served by one request. */
    private static final long REFRESH_GAP_MS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(TopologyClient.class);

    private final List<URI> coordinators;
    private final Duration pollWait;
    private final TopologyFreshness freshness;
    private final long earlyAnswerPauseMs;
    private final CoordinatorHttp http;
    private final CoordinatorOutage outage;
    private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
    private final Thread poller;
    private final Thread refresher;
    private final Object refreshSignal = new Object();
    private boolean refreshRequested;
    private volatile boolean running = true;
    private volatile int preferredIndex;
    /** Written under this object's lock, so that listeners see versions in order; read without it. */
    private volatile Topology current;

    /**
     * @param coordinators    tried in turn; any of them answers
     * @param connectTimeout  how long to wait for a TCP connection to a coordinator
     * @param pollWait        how long a coordinator may hold a long poll, 100 ms to 30 s
     */
    public TopologyClient(final List<URI> coordinators, final Duration connectTimeout, final Duration pollWait) {
        this(coordinators, connectTimeout, pollWait, FailoverDataSourceConfig.TOPOLOGY_MAX_AGE_DEFAULT);
    }

    /**
     * @param maxAge the longest a topology counts as {@linkplain #isFresh() fresh} without a confirmation; zero: always
     */
    public TopologyClient(final List<URI> coordinators, final Duration connectTimeout, final Duration pollWait,
        final Duration maxAge) {
        this(coordinators, connectTimeout, pollWait, maxAge, EARLY_ANSWER_PAUSE);
    }

    TopologyClient(final List<URI> coordinators, final Duration connectTimeout, final Duration pollWait,
        final Duration maxAge, final Duration earlyAnswerPause) {
        if (coordinators.isEmpty()) {
            throw new IllegalArgumentException("at least one coordinator URL is needed");
        }
        if (pollWait.compareTo(CoordinatorHttp.MIN_WAIT) < 0 || pollWait.compareTo(CoordinatorHttp.MAX_WAIT) > 0) {
            throw new IllegalArgumentException("pollWait must be in [100, 30000] ms: " + pollWait.toMillis() + " ms");
        }
        this.coordinators = List.copyOf(coordinators);
        this.freshness = new TopologyFreshness(maxAge);
        this.pollWait = freshness.pollWait(pollWait);
        this.earlyAnswerPauseMs = earlyAnswerPause.toMillis();
        this.http = new CoordinatorHttp(connectTimeout);
        this.outage = new CoordinatorOutage(this.coordinators, RETRY_MAX.toMillis());
        this.poller = daemon(this::pollUntilClosed, "rdmarepl-topology-poll");
        this.refresher = daemon(this::refreshUntilClosed, "rdmarepl-topology-refresh");
    }

    /**
     * Start following; add listeners before, to be told of the first topology.
     */
    public TopologyClient start() {
        poller.start();
        refresher.start();
        return this;
    }

    public void addListener(final TopologyListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * @return the newest topology received, none before the first answer.
     */
    public Optional<Topology> current() {
        return Optional.ofNullable(current);
    }

    /**
     * Ask a coordinator for the topology now, without waiting for the long poll. Does not block; requests made
     * while one is in flight are served by the next one.
     */
    public void refreshNow() {
        synchronized (refreshSignal) {
            refreshRequested = true;
            refreshSignal.notifyAll();
        }
    }

    public List<URI> coordinators() {
        return coordinators;
    }

    /**
     * @return the coordinators and whether they answer, for error messages.
     */
    public String describeCoordinators() {
        return outage.describe();
    }

    /**
     * @return true while no coordinator answers (or every one that answers lost its state store).
     */
    public boolean coordinatorsDown() {
        return outage.isDown();
    }

    /**
     * @return true while the current topology may be used: confirmed by a coordinator that holds the cluster's state
     * within the bound (or there is no bound)
     */
    public boolean isFresh() {
        return freshness.isFresh();
    }

    /**
     * Waits until the topology may be used, or {@code deadlineNs} (System.nanoTime) passes.
     *
     * @return true if it may be used
     */
    public boolean awaitFresh(final long deadlineNs) throws InterruptedException {
        return freshness.awaitFresh(deadlineNs);
    }

    /**
     * @return e.g. "topology confirmed 31250 ms ago (bound 30000 ms)", for error messages.
     */
    public String describeFreshness() {
        return freshness.describe();
    }

    @Override
    public void close() {
        running = false;
        http.close();
        poller.interrupt();
        refresher.interrupt();
        join(poller);
        join(refresher);
    }

    private void pollUntilClosed() {
        final Backoff backoff = new Backoff(RETRY_MIN, RETRY_MAX);
        int failuresInRow = 0;
        while (running) {
            final int index = preferredIndex;
            final URI coordinator = coordinators.get(index);
            try {
                final long startNs = System.nanoTime();
                final Topology known = current().orElse(null);
                final Topology answer = known == null ? http.fetchNow(coordinator) :
                    http.awaitNewer(coordinator, known.version(), pollWait, TopologyFreshness.STALE_ANSWER);
                if (!accept(answer, coordinator, System.nanoTime())) {
                    // it answers from a state it can no longer check: ask the next coordinator, as if it failed
                    preferredIndex = (index + 1) % coordinators.size();
                    failuresInRow++;
                    if (failuresInRow % coordinators.size() == 0 && !sleepQuietly(backoff.nextDelayMs())) {
                        return;
                    }
                    continue;
                }
                failuresInRow = 0;
                backoff.reset();
                final long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
                // judged by the version asked after, not by whether this answer was news: a refresh may have
                // delivered the same version first, mid-failover, and the next one is then only milliseconds away
                if (known != null && answer.version() <= known.version() && elapsedMs < pollWait.toMillis() / 2) {
                    // the coordinator did not hold the request: do not turn this thread into a busy loop
                    Thread.sleep(earlyAnswerPauseMs);
                }
            } catch (final CoordinatorException ex) {
                outage.recordFailure(ex);
                preferredIndex = (index + 1) % coordinators.size();
                failuresInRow++;
                if (failuresInRow % coordinators.size() == 0 && !sleepQuietly(backoff.nextDelayMs())) {
                    return;
                }
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } catch (final RuntimeException ex) {
                // a bug, not an outage: say so loudly, once per occurrence, and keep following
                LOG.error("topology poll of {} failed unexpectedly", coordinator, ex);
                if (!sleepQuietly(RETRY_MAX.toMillis())) {
                    return;
                }
            }
        }
    }

    private void refreshUntilClosed() {
        final Backoff backoff = new Backoff(RETRY_MIN, RETRY_MAX);
        while (running) {
            try {
                synchronized (refreshSignal) {
                    while (!refreshRequested) {
                        refreshSignal.wait();
                    }
                    refreshRequested = false;
                }
                if (fetchFromAnyCoordinator()) {
                    backoff.reset();
                    Thread.sleep(REFRESH_GAP_MS);
                } else {
                    // callers keep asking while the coordinators are down: do not hammer them
                    Thread.sleep(backoff.nextDelayMs());
                }
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } catch (final RuntimeException ex) {
                LOG.error("topology refresh failed unexpectedly", ex);
            }
        }
    }

    /**
     * @return true if a coordinator that holds the cluster's state answered
     */
    private boolean fetchFromAnyCoordinator() throws InterruptedException {
        final int first = preferredIndex;
        for (int i = 0; i < coordinators.size(); i++) {
            final URI coordinator = coordinators.get((first + i) % coordinators.size());
            try {
                if (accept(http.fetchNow(coordinator), coordinator, System.nanoTime())) {
                    return true;
                }
            } catch (final CoordinatorException ex) {
                outage.recordFailure(ex);
            }
        }
        return false;
    }

    /**
     * Takes what a coordinator answered: a newer version is kept whoever sent it (nothing is newer than it); only an
     * answer from a coordinator that holds the cluster's state confirms the topology followed.
     *
     * @return false if the answer was stale: its coordinator lost its state store
     */
    private boolean accept(final Topology answer, final URI from, final long receivedNs) {
        offer(answer, from);
        if (TopologyFreshness.isStale(answer)) {
            outage.recordFailure(new CoordinatorException(from, "answers from a state " + answer.ageMs() +
                " ms old (leader " + answer.leader() + "): it lost its state store"));
            return false;
        }
        outage.recordAnswer(from);
        final Topology followed = current;
        if (followed != null && answer.version() >= followed.version()) {
            freshness.confirmed(answer, receivedNs);
        }
        return true;
    }

    /**
     * Keep a topology if it is newer than the current one and tell the listeners, in version order.
     *
     * @return true if it was newer
     */
    synchronized boolean offer(final Topology next, final URI from) {
        final Topology previous = current;
        if (previous != null && next.version() <= previous.version()) {
            if (next.version() < previous.version()) {
                LOG.debug("ignored topology {} from {}: older than {}", next.describe(), from, previous.describe());
            }
            return false;
        }
        current = next;
        LOG.debug("topology {} from {}", next.describe(), from);
        for (final TopologyListener listener : listeners) {
            try {
                listener.onTopology(previous, next);
            } catch (final RuntimeException ex) {
                LOG.error("topology listener {} failed on {}", listener, next.describe(), ex);
            }
        }
        return true;
    }

    private static boolean sleepQuietly(final long delayMs) {
        try {
            Thread.sleep(delayMs);
            return true;
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void join(final Thread thread) {
        try {
            thread.join(CoordinatorHttp.MAX_WAIT.toMillis());
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(final Runnable body, final String name) {
        final Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
