package io.rdmarepl.channel.verbs;

import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCReqNotify;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receives a reader keeps posted on one writer's queue pair for that writer's doorbell rings, and the wait for
 * a ring: the writer's RDMA WRITE WITH IMMEDIATE ({@link VerbsWriterEnd#ringDoorbell}) consumes one receive and
 * completes it on the receive queue, whose completion channel the reader blocks on. So a sleeping reader is woken
 * by the interrupt of its own network card, and a busy one costs the writer nothing: it rings only while the
 * reader's sleep word says it sleeps.
 *
 * <p>Awaited by the reader's polling thread only. Closed by the conductor, which first waits for a wait in
 * progress to end: each blocking call lasts at most {@link #SLICE_MS}, and the queues are destroyed only after.
 * Allocation-free after construction.
 */
final class DoorbellReceives {
    /** The immediate every ring carries; a completion with another one is not a ring. */
    static final int IMMEDIATE = 0x52696e67; // "Ring"
    /** Longest single block on the completion channel, so that a close never waits longer. */
    static final int SLICE_MS = 50;

    private final VerbsConnection connection;
    private final SVCPostRecv repost;
    private final SVCReqNotify arm;
    private final ReentrantLock lock = new ReentrantLock();
    private int posted;
    /** A ring taken by {@link #takePendingRings}, not yet reported by {@link #await} (guarded by {@code lock}). */
    private boolean ringTaken;
    private volatile boolean closed;

    /** Posts {@link VerbsConnection#DOORBELL_RECEIVES} receives; before the writer may ring (the address word says it). */
    DoorbellReceives(VerbsConnection connection) throws IOException {
        this.connection = connection;
        IbvRecvWR receive = new IbvRecvWR();
        receive.setWr_id(VerbsConnection.DOORBELL_WR_ID);
        receive.setSg_list(new LinkedList<>());
        receive.setNum_sge(0);
        this.repost = connection.qp.postRecv(new LinkedList<>(List.of(receive)), null);
        this.arm = connection.recvCq.reqNotification(false);
        while (posted < VerbsConnection.DOORBELL_RECEIVES) {
            repost.execute();
            posted++;
        }
    }

    /**
     * Blocks until a ring comes or {@code timeoutNs} passed; a ring that came before the call ends it at once (it
     * may be stale: one sleep ends early). Every ring pending is consumed and its receive posted again. A completion
     * event with no ring behind it (one an earlier arm left pending) does not end the wait.
     *
     * @return true when a ring ended the wait
     */
    boolean await(long timeoutNs) throws IOException {
        long deadlineNs = System.nanoTime() + timeoutNs;
        while (true) {
            lock.lock();
            try {
                if (closed) {
                    return false;
                }
                if (ringTaken | drain()) {
                    ringTaken = false;
                    return true;
                }
                arm.execute();
                if (drain()) {
                    return true; // the event this armed stays pending: the next wait may end early once
                }
                long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0) {
                    return false;
                }
                // whole milliseconds, at least one: a sleep a little longer than asked, never a busy loop
                int sliceMs = (int) Math.min(SLICE_MS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(leftNs + 999_999)));
                if (connection.recvCompChannel.getCqEvent(connection.recvCq, sliceMs)) {
                    connection.recvCq.ackEvents(1);
                    if (drain()) {
                        return true;
                    }
                    // an event an earlier arm left pending (above), its ring taken then: not a ring, wait on
                }
                if (sliceMs < SLICE_MS) {
                    return drain();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Consumes the rings that came, without blocking, and posts their receives again. Called before each announced
     * sleep: a reader whose every sleep is cut short before it waits would otherwise never consume a ring. Before a
     * new word they rang an older one, and are dropped: the reader looks at the producer position after it announces
     * the word, which a ring's publish moved before it rang, so ending the sleep for them would only end it for nothing.
     * Before a kept word the next {@link #await} ends at once if there was one: the writer rings a word once, and that
     * ring may have come after the sleep that announced it ended.
     *
     * @param newWord the reader announces a new sleep word
     */
    void takePendingRings(boolean newWord) throws IOException {
        lock.lock();
        try {
            if (!closed) {
                boolean rung = drain();
                ringTaken = !newWord && (ringTaken || rung);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The queue pair was flushed or this was closed: no ring can come any more. */
    boolean isClosed() {
        return closed;
    }

    /** Consumes the completed receives and posts them again; @return true when one was a ring */
    private boolean drain() throws IOException {
        boolean rung = false;
        int polled;
        do {
            polled = connection.recvPoll.execute().getPolls();
            for (int i = 0; i < polled; i++) {
                IbvWC wc = connection.recvCompletions[i];
                if (wc.getWr_id() != VerbsConnection.DOORBELL_WR_ID) {
                    continue;
                }
                posted--;
                if (wc.getStatus() != IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal()) {
                    closed = true; // flushed: the queue pair is gone, and so is this writer
                    continue;
                }
                rung |= wc.getImm_data() == IMMEDIATE;
            }
        } while (polled == connection.recvCompletions.length);
        while (!closed && posted < VerbsConnection.DOORBELL_RECEIVES) {
            repost.execute();
            posted++;
        }
        return rung;
    }

    /** No wait starts after this returns, and none is in progress: the queue pair may go. */
    void close() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
    }
}
