package io.rdmarepl.shipper.ship;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest state of every sequence read on the primary, for the standby handlers to ship. The reading thread
 * {@link #update}s it; each standby handler, between transactions (before a Begin, or idle), writes the entries
 * that changed since the board version it last wrote, so a standby that fell behind, or connected later, still
 * gets the latest state of every sequence, and an unchanged sequence is never shipped twice to the same standby.
 * Every update publishes a new immutable {@link Snapshot}: the handlers read one volatile field and allocate
 * nothing.
 *
 * <p>Stream order: the handlers ship board entries only between transactions, so a Sequence record never splits a
 * transaction; and a board updated before the capture thread hands over a transaction (the fresh reading before a
 * catch-up marker) is written before that transaction's Begin, on every standby.
 */
public final class SequenceBoard {
    private volatile Snapshot snapshot = new Snapshot(0, new Entry[0]);

    /** One sequence's state as read on the primary at {@code readTimeUs} (µs since the epoch). */
    public record Reading(String schema, String name, long lastValue, boolean isCalled, long readTimeUs) {
        boolean sameState(Reading other) {
            return lastValue == other.lastValue && isCalled == other.isCalled;
        }
    }

    /** A reading and the board version at which its state was new. */
    record Entry(Reading reading, long version) {
    }

    /** The board at one version; the array is never written after publication. */
    record Snapshot(long version, Entry[] entries) {
    }

    /**
     * Replaces the board with {@code readings}, every sequence read this time: a sequence whose state differs from
     * the one on the board (or that is new) is shipped again; one no longer read is forgotten.
     *
     * @return how many readings are to be shipped
     */
    public synchronized int update(List<Reading> readings) {
        Snapshot current = snapshot;
        Map<String, Entry> previous = new HashMap<>();
        for (Entry entry : current.entries()) {
            previous.put(key(entry.reading()), entry);
        }
        long next = current.version() + 1;
        Entry[] entries = new Entry[readings.size()];
        int changed = 0;
        for (int i = 0; i < entries.length; i++) {
            Reading reading = readings.get(i);
            Entry old = previous.get(key(reading));
            if (old != null && old.reading().sameState(reading)) {
                entries[i] = old;
            } else {
                entries[i] = new Entry(reading, next);
                changed++;
            }
        }
        snapshot = new Snapshot(changed > 0 ? next : current.version(), entries);
        return changed;
    }

    /** How many sequences the board holds. */
    public int size() {
        return snapshot.entries().length;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    private static String key(Reading reading) {
        return reading.schema() + '\u0000' + reading.name();
    }
}
