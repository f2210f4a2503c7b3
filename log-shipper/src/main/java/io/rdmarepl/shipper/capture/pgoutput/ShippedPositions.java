package io.rdmarepl.shipper.capture.pgoutput;

import java.util.Arrays;

/**
 * Transactions shipped or passed over but not yet confirmed to the slot, in commit order: each one's commit LSN (what
 * the standbys acknowledge: the applier reports the Begin's commit LSN) and end LSN (what the slot and a waiting
 * synchronous commit need: the end of the commit record). An acknowledgement of commit LSN {@code a} confirms every
 * shipped transaction up to {@code a}, and with them the empty ones (nothing shipped) that follow, since nothing
 * before those is pending any more. Primitive arrays used as a ring, grown when full; the capture thread adds, a
 * standby handler's acknowledgement removes, under this object's lock.
 */
final class ShippedPositions {
    private long[] commitLsns = new long[1024];
    private long[] endLsns = new long[1024];
    private boolean[] empty = new boolean[1024];
    private int head;
    private int size;
    private long confirmed;

    synchronized void shipped(long commitLsn, long endLsn) {
        add(commitLsn, endLsn, false);
    }

    /** A committed transaction nothing of which was shipped: confirmed as soon as everything before it is. */
    synchronized void passedOver(long commitLsn, long endLsn) {
        if (size == 0) {
            confirmed = Math.max(confirmed, endLsn);
            return;
        }
        add(commitLsn, endLsn, true);
    }

    /**
     * The standbys hold every transaction whose commit LSN is at or below {@code acknowledgedLsn}.
     *
     * @return the end LSN now confirmed (never lower than before)
     */
    synchronized long acknowledged(long acknowledgedLsn) {
        while (size > 0 && (empty[head] || Long.compareUnsigned(commitLsns[head], acknowledgedLsn) <= 0)) {
            confirmed = Math.max(confirmed, endLsns[head]);
            head = (head + 1) & (commitLsns.length - 1);
            size--;
        }
        return confirmed;
    }

    /** Nothing is waiting for an acknowledgement. */
    synchronized boolean allConfirmed() {
        return size == 0;
    }

    synchronized int pending() {
        return size;
    }

    synchronized long confirmed() {
        return confirmed;
    }

    /** Everything received has been handed over and confirmed: the slot may move up to {@code lsn} (idle WAL). */
    synchronized long confirmIdle(long lsn) {
        if (size == 0) {
            confirmed = Math.max(confirmed, lsn);
        }
        return confirmed;
    }

    private void add(long commitLsn, long endLsn, boolean nothingShipped) {
        if (size == commitLsns.length) {
            grow();
        }
        int at = (head + size) & (commitLsns.length - 1);
        commitLsns[at] = commitLsn;
        endLsns[at] = endLsn;
        empty[at] = nothingShipped;
        size++;
    }

    private void grow() {
        int n = commitLsns.length;
        long[] commits = new long[n * 2];
        long[] ends = new long[n * 2];
        boolean[] empties = new boolean[n * 2];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & (n - 1);
            commits[i] = commitLsns[from];
            ends[i] = endLsns[from];
            empties[i] = empty[from];
        }
        commitLsns = commits;
        endLsns = ends;
        empty = empties;
        head = 0;
        Arrays.fill(commits, size, commits.length, 0L);
    }
}
