package io.rdmarepl.harness.bench.lag;

import io.micrometer.core.instrument.AbstractTimer;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * When each transaction passed two points inside rdmarepl, from the components' own timers: a registry (beside the
 * Prometheus one, in a composite) whose two timers remember the wall-clock moment of every record instead of a
 * distribution. {@value #RING} is recorded by the standby handler as it writes a transaction's Commit into the ring,
 * {@value #REPLICA} by the applier right after the replica committed it and just before it publishes its feedback to
 * the shipper. Each record's value is the time since the primary's commit, so it also names the transaction (its
 * commit time, to the millisecond the components read their clocks at). Against a probe's {@code sent_at},
 * {@code applied_at} and the moment its commit returned, a synchronous commit splits into four legs:
 * <pre>
 *   sent_at --capture + ship--> in the ring --ring, apply up to the trigger--> applied_at
 *     --rest of the replica transaction, commit--> feedback published
 *     --shipper sees it, acknowledges, Debezium commits the offset and flushes the LSN, the primary releases--> returned
 * </pre>
 * Probes are told apart by their commit time: only without other load (one transaction at a time).
 */
final class CommitEvents extends SimpleMeterRegistry {
    static final String RING = "rdmarepl_shipper_commit_to_ring";
    static final String REPLICA = "rdmarepl.applier.lag";
    /** The legs of {@link #split}, in order. */
    static final List<String> LEGS = List.of("sent_to_ring", "ring_to_applied", "applied_to_replica_committed",
            "replica_committed_to_returned");

    /** @param atUs wall clock when recorded; @param commitUs the transaction's commit time on the primary (to about 1 ms) */
    record Event(long atUs, long commitUs) {
    }

    private final Map<String, ConcurrentLinkedQueue<Event>> events = Map.of(RING, new ConcurrentLinkedQueue<>(),
            REPLICA, new ConcurrentLinkedQueue<>());

    @Override
    protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
        ConcurrentLinkedQueue<Event> queue = events.get(id.getName());
        if (queue == null) {
            return super.newTimer(id, config, pauseDetector);
        }
        return new AbstractTimer(id, Clock.SYSTEM, DistributionStatisticConfig.NONE, pauseDetector, TimeUnit.SECONDS, false) {
            @Override
            protected void recordNonNegative(long amount, TimeUnit unit) {
                long now = LagWorkload.wallClockUs();
                queue.add(new Event(now, now - unit.toMicros(amount)));
            }

            @Override
            public long count() {
                return queue.size();
            }

            @Override
            public double totalTime(TimeUnit unit) {
                return 0;
            }

            @Override
            public double max(TimeUnit unit) {
                return 0;
            }
        };
    }

    List<Event> events(String timer) {
        List<Event> list = new ArrayList<>(events.get(timer));
        list.sort(Comparator.comparingLong(Event::commitUs));
        return list;
    }

    /**
     * Per probe of {@code samples} (applied on the replica, its commit returned at {@code window.returnedUs}): the four
     * legs, for the probes whose transaction both timers recorded exactly once between its {@code sent_at} and its return.
     *
     * @return leg name to histogram (microseconds), in {@link #LEGS} order
     */
    static Map<String, Histogram> split(List<ProbeSample> samples, LagWorkload.Window window, List<Event> ring, List<Event> replica) {
        Map<String, Histogram> legs = new LinkedHashMap<>();
        LEGS.forEach(leg -> legs.put(leg, Figures.histogram()));
        for (ProbeSample s : samples) {
            long returned = window.returnedUs(s.id());
            if (returned <= 0) {
                continue;
            }
            long applied = s.sentAtUs() + s.lagUs();
            Event inRing = only(ring, s.sentAtUs(), returned);
            Event committed = only(replica, s.sentAtUs(), returned);
            if (inRing == null || committed == null) {
                continue;
            }
            Figures.record(legs.get(LEGS.get(0)), inRing.atUs() - s.sentAtUs());
            Figures.record(legs.get(LEGS.get(1)), applied - inRing.atUs());
            Figures.record(legs.get(LEGS.get(2)), committed.atUs() - applied);
            Figures.record(legs.get(LEGS.get(3)), returned - committed.atUs());
        }
        return legs;
    }

    /** The one event whose transaction committed within [{@code fromUs} - 1 ms, {@code toUs}]; null when none or several. */
    private static Event only(List<Event> sorted, long fromUs, long toUs) {
        int lo = 0;
        int hi = sorted.size();
        long from = fromUs - 1_000; // the components read a millisecond clock
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid).commitUs() < from) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Event found = null;
        for (int i = lo; i < sorted.size() && sorted.get(i).commitUs() <= toUs; i++) {
            if (found != null) {
                return null;
            }
            found = sorted.get(i);
        }
        return found;
    }
}
