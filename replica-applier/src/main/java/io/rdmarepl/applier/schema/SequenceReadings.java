package io.rdmarepl.applier.schema;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The states of each sequence the primary shipped (Sequence records), as applied, so promotion can estimate
 * how fast each sequence moved: per sequence the last two readings whose values differ, and when the newest
 * reading (possibly an unchanged one, re-sent after a shipper restart) was taken. Written on the apply thread;
 * {@link #snapshot()} may be read from any thread. Kept in memory only: after a restart the shipper sends every
 * sequence again on its new connection.
 */
public final class SequenceReadings {
    private final Map<Key, History> histories = new ConcurrentHashMap<>();

    /** One state of a sequence on the primary, read at {@code readTimeUs} (primary's clock, µs since the epoch). */
    public record Reading(long lastValue, boolean isCalled, long readTimeUs) {
        boolean sameState(Reading other) {
            return lastValue == other.lastValue && isCalled == other.isCalled;
        }
    }

    /**
     * What is known of one sequence.
     *
     * @param previous the reading before {@code last} with another state, or null when only one state was seen
     * @param last     the latest state shipped
     * @param newestUs when the newest reading was taken (at or after {@code last.readTimeUs()})
     */
    public record History(String schema, String name, Reading previous, Reading last, long newestUs) {
    }

    private record Key(String schema, String name) {
    }

    /**
     * Records a reading. The same reading twice (a group applied again after a failure) changes nothing; a
     * reading with the last state only moves {@code newestUs}, so a re-sent unchanged state does not hide the rate.
     */
    public void record(String schema, String name, long lastValue, boolean isCalled, long readTimeUs) {
        Reading reading = new Reading(lastValue, isCalled, readTimeUs);
        histories.compute(new Key(schema, name), (key, h) -> {
            if (h == null) {
                return new History(schema, name, null, reading, readTimeUs);
            }
            if (reading.sameState(h.last())) {
                return new History(schema, name, h.previous(), h.last(), Math.max(h.newestUs(), readTimeUs));
            }
            return new History(schema, name, h.last(), reading, readTimeUs);
        });
    }

    /** Every sequence's history, in no particular order. */
    public List<History> snapshot() {
        return List.copyOf(histories.values());
    }
}
