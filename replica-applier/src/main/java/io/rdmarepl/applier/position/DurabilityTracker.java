package io.rdmarepl.applier.position;

import io.rdmarepl.format.Lsn;

/**
 * Maps source commit LSNs to the replica's WAL, so the durable LSN reported to the shipper is what the
 * replica has flushed, not merely committed (with {@code synchronous_commit=off} a commit returns before
 * its WAL is flushed). After each commit the applier records (replica WAL position after the commit,
 * source commit LSN); a source LSN is released once the replica's flush LSN reaches its WAL position.
 * A primitive FIFO; single-threaded (the apply thread).
 */
public final class DurabilityTracker {
    private long[] replicaLsns = new long[64];
    private long[] sourceLsns = new long[64];
    private int head;
    private int size;
    private long durable;

    public DurabilityTracker(long startLsn) {
        this.durable = startLsn;
    }

    /** A commit whose WAL ends at or before {@code replicaLsn} made {@code sourceLsn} applied. */
    public void committed(long replicaLsn, long sourceLsn) {
        if (size == replicaLsns.length) {
            grow();
        }
        int tail = (head + size) & (replicaLsns.length - 1);
        replicaLsns[tail] = replicaLsn;
        sourceLsns[tail] = sourceLsn;
        size++;
    }

    /** A commit known durable at once (synchronous_commit on or local). */
    public void durableNow(long sourceLsn) {
        durable = Lsn.max(durable, sourceLsn);
    }

    /** Releases every source LSN whose commit the replica flushed; returns the durable LSN. */
    public long flushedUpTo(long replicaFlushLsn) {
        while (size > 0 && Lsn.compare(replicaLsns[head], replicaFlushLsn) <= 0) {
            durable = Lsn.max(durable, sourceLsns[head]);
            head = (head + 1) & (replicaLsns.length - 1);
            size--;
        }
        return durable;
    }

    public long durableLsn() {
        return durable;
    }

    /** Commits still waiting for the replica's WAL flush. */
    public int pending() {
        return size;
    }

    private void grow() {
        long[] r = new long[replicaLsns.length * 2];
        long[] s = new long[sourceLsns.length * 2];
        for (int k = 0; k < size; k++) {
            r[k] = replicaLsns[(head + k) & (replicaLsns.length - 1)];
            s[k] = sourceLsns[(head + k) & (sourceLsns.length - 1)];
        }
        replicaLsns = r;
        sourceLsns = s;
        head = 0;
    }
}
