package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.fragment.MessageAssembler;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The standby side of the capture benchmark: owns a shm ring, notes when each probe's transaction
 * becomes visible in it (its Commit record is read), and acknowledges everything as durable so the
 * primary's slot advances as it would with a real applier.
 */
final class CaptureProbeReader implements AutoCloseable {
    private final ShmReaderEnd end;
    private final RingReader reader;
    private final AtomicLongArray visibleNs;
    private final AtomicLong transactions = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;
    private final long[] pendingIds = new long[4096];
    private int pending;

    CaptureProbeReader(Path file, int capacity, int maxProbes) {
        this.end = ShmReaderEnd.create(file, capacity, 1, System.nanoTime(), true);
        this.reader = new RingReader(end);
        this.visibleNs = new AtomicLongArray(maxProbes);
        RecordDecoder decoder = new RecordDecoder();
        RecordHandler handler = new RecordHandler() {
            @Override
            public void onInsert(RowChangeView insert) {
                if (pending < pendingIds.length) {
                    pendingIds[pending++] = insert.newTuple().int8(0);
                }
            }

            @Override
            public void onCommit(long txId, long commitLsn, long endLsn, long commitTimeUs) {
                long now = System.nanoTime();
                for (int i = 0; i < pending; i++) {
                    long id = pendingIds[i];
                    if (id >= 0 && id < visibleNs.length()) {
                        visibleNs.compareAndSet((int) id, 0, now);
                    }
                }
                pending = 0;
                transactions.incrementAndGet();
                reader.feedback().appliedLsn(commitLsn);
                reader.feedback().durableLsn(commitLsn);
            }
        };
        MessageAssembler assembler = new MessageAssembler((type, buffer, offset, length) -> decoder.decode(buffer, offset, length, handler));
        // as the applier idles: a spinning reader would starve PostgreSQL on small hosts
        IdleStrategy idle = BackoffIdleStrategy.forReader(reader, 2_000, 10, 1_000_000);
        this.thread = new Thread(() -> {
            while (running) {
                idle.idle(reader.poll(assembler, 256));
            }
        }, "capture-probe-reader");
        thread.setDaemon(true);
        thread.start();
    }

    String uri() {
        return "shm://" + end.path().toAbsolutePath();
    }

    long visibleNs(int id) {
        return visibleNs.get(id);
    }

    /** CPU time this reader's thread used so far, ns. */
    long cpuNs() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.getId());
    }

    long transactions() {
        return transactions.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
        end.close();
    }
}
