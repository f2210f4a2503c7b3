package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.coordinator.state.Member;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The topology clients follow ({@code GET /topology}): the current primary (none while a failover is under way),
 * the epoch and every member, with a version that moves on every change. Readers may wait for the next version
 * (long poll), so a failover reaches them as soon as it is published.
 * <p>
 * Every answer also says whether this coordinator leads ({@code leader}) and how old its knowledge is ({@code age_ms}):
 * 0 while it leads (it writes every change itself), else the time since what it holds was last known to be the
 * cluster's state: its last read of the store, or with ZooKeeper the quorum's last answer before it. A coordinator cut
 * off from ZooKeeper still answers, with what it knew: its age grows, and clients go to another coordinator rather
 * than follow it (issue 21, holes 3 and 5). The age is relative, so clients need no synchronised clock.
 */
public final class TopologyBoard {
    /** How often a long poll held with {@code max_age_ms} looks whether the document went stale meanwhile. */
    static final long STALE_CHECK_MS = 100;

    private final BooleanSupplier leading;
    private final LongSupplier nanoClock;
    private Map<String, Object> document = starting();
    private long version = -1;
    private long confirmedNs;

    /** @param leading whether this coordinator leads now (the state store's word, e.g. ZooKeeper's leader latch) */
    public TopologyBoard(BooleanSupplier leading) {
        this(leading, System::nanoTime);
    }

    TopologyBoard(BooleanSupplier leading, LongSupplier nanoClock) {
        this.leading = leading;
        this.nanoClock = nanoClock;
        this.confirmedNs = nanoClock.getAsLong();
    }

    /** Before the first publish: the full shape, no primary yet, so clients simply wait. */
    private static Map<String, Object> starting() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cluster", "");
        doc.put("version", -1L);
        doc.put("epoch", 0);
        doc.put("phase", "STARTING");
        doc.put("primary", null);
        doc.put("members", List.of());
        return doc;
    }

    /**
     * @param jdbcUrlOf where a member is reached now (the configuration's address wins over the one stored when
     *                  the cluster was initialised, so a moved server is followed after a coordinator restart)
     */
    synchronized void publish(ClusterState state, long storeVersion, java.util.function.UnaryOperator<String> jdbcUrlOf) {
        if (storeVersion == version) {
            return;
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("cluster", state.cluster());
        doc.put("version", storeVersion);
        doc.put("epoch", state.epoch());
        doc.put("phase", state.phase().name());
        Member primary = state.phase().hasWritablePrimary() ? state.member(state.primary()).orElse(null) : null;
        doc.put("primary", primary == null ? null : Map.of("name", primary.name(), "jdbc_url", jdbcUrlOf.apply(primary.name())));
        List<Map<String, Object>> members = new ArrayList<>();
        for (Member m : state.members()) {
            members.add(Map.of("name", m.name(), "jdbc_url", jdbcUrlOf.apply(m.name()), "role", m.role().name()));
        }
        doc.put("members", members);
        document = doc;
        version = storeVersion;
        notifyAll();
    }

    /**
     * The document is known to be the cluster's state as of {@code asOfNs} (on this board's clock): a follower read it
     * then, or the leader acted on it; an earlier confirmation moves nothing back.
     */
    synchronized void confirm(long asOfNs) {
        if (asOfNs - confirmedNs > 0) {
            confirmedNs = asOfNs;
        }
    }

    /** How old this coordinator's knowledge is: 0 while it leads, else the time since it last read the store. */
    synchronized long ageMs() {
        return leading.getAsBoolean() ? 0 : TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - confirmedNs);
    }

    /** The topology once its version is above {@code after}, or the current one after {@code waitMs}. */
    public synchronized Map<String, Object> await(long after, long waitMs) throws InterruptedException {
        return await(after, waitMs, 0);
    }

    /**
     * Like {@link #await(long, long)}, and also as soon as the document is older than {@code maxAgeMs} (when above 0):
     * a client holding a long poll hears at once that this coordinator lost its store, not at the end of the hold.
     */
    public synchronized Map<String, Object> await(long after, long waitMs, long maxAgeMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Math.min(Math.max(0, waitMs), 30_000);
        while (version <= after && (maxAgeMs <= 0 || ageMs() <= maxAgeMs)) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                break;
            }
            wait(maxAgeMs > 0 ? Math.min(left, STALE_CHECK_MS) : left);
        }
        Map<String, Object> answer = new LinkedHashMap<>(document);
        boolean leader = leading.getAsBoolean();
        answer.put("leader", leader);
        answer.put("age_ms", ageMs());
        return answer;
    }
}
