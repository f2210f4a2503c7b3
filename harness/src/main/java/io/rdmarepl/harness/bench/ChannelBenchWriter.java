package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.ring.RingWriter;
import io.rdmarepl.channel.ring.WriterEnd;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The writing half of the channel benchmark: paced frames for latency, then flat out for throughput. */
final class ChannelBenchWriter {
    private static final long YIELD_THRESHOLD_NS = 3_000;
    private final ChannelUri uri;
    private final ChannelSecurity security;
    private final int payloadLength;
    private final long intervalNs;
    private final int warmupSeconds;
    private final int seconds;
    private final PrintWriter progress;
    private final ByteBuffer filler;

    /** What the writer saw, with the reader's figures. */
    record Result(Map<String, Object> reader, long writerAllocatedBytes, long writerFrames, long backPressureEvents,
                  long latencyFramesSent, long behindScheduleNs) {
    }

    ChannelBenchWriter(ChannelUri uri, ChannelSecurity security, int frameSize, int rate, int warmupSeconds, int seconds, PrintWriter progress) {
        this.uri = uri;
        this.security = security;
        this.payloadLength = BenchFrames.payloadLength(frameSize);
        this.intervalNs = 1_000_000_000L / rate;
        this.warmupSeconds = warmupSeconds;
        this.seconds = seconds;
        this.progress = progress;
        this.filler = ByteBuffer.allocateDirect(payloadLength);
        for (int i = 0; i < payloadLength; i++) {
            filler.put(i, (byte) i);
        }
    }

    Result run(ChildReader child) throws IOException {
        try (WriterEnd end = Transports.openWriter(uri, security)) {
            RingWriter writer = new RingWriter(end);
            ThreadAllocation.currentThreadAllocatedBytes(); // load the management classes before any timing
            say("warm-up: " + warmupSeconds + " s paced");
            paced(writer, BenchFrames.WARMUP, TimeUnit.SECONDS.toNanos(warmupSeconds), child);
            say("latency: " + seconds + " s at " + (1_000_000_000L / intervalNs) + " frames/s");
            long allocationBefore = ThreadAllocation.currentThreadAllocatedBytes();
            long framesBefore = writer.framesCommitted();
            long[] paced = paced(writer, BenchFrames.LATENCY, TimeUnit.SECONDS.toNanos(seconds), child);
            say("throughput: " + seconds + " s flat out");
            flatOut(writer, TimeUnit.SECONDS.toNanos(seconds), child);
            send(writer, BenchFrames.END, 0, child);
            writer.publish(); // over shm a no-op; over verbs the frame travels only now
            long allocated = ThreadAllocation.currentThreadAllocatedBytes() - allocationBefore;
            long frames = writer.framesCommitted() - framesBefore;
            say("waiting for the reader's figures");
            Map<String, Object> readerResult = child.awaitResult();
            return new Result(readerResult, allocationBefore < 0 ? -1 : allocated, frames,
                    writer.backPressureEvents(), paced[0], paced[1]);
        }
    }

    /** @return frames sent and the worst lateness against the schedule */
    private long[] paced(RingWriter writer, int type, long durationNs, ChildReader child) {
        long startNs = System.nanoTime();
        long endNs = startNs + durationNs;
        long dueNs = startNs;
        long sent = 0;
        long worstLateNs = 0;
        while (dueNs < endNs) {
            long nowNs;
            while ((nowNs = System.nanoTime()) < dueNs) {
                if (dueNs - nowNs > YIELD_THRESHOLD_NS) {
                    Thread.yield(); // lend the core to whatever else wants it now, rather than be preempted later
                } else {
                    Thread.onSpinWait();
                }
            }
            worstLateNs = Math.max(worstLateNs, nowNs - dueNs);
            send(writer, type, -1, child);
            writer.publish();
            sent++;
            dueNs += intervalNs;
        }
        return new long[] {sent, worstLateNs};
    }

    private void flatOut(RingWriter writer, long durationNs, ChildReader child) {
        long endNs = System.nanoTime() + durationNs;
        int batch = 0;
        while (true) {
            int offset = writer.tryClaim(BenchFrames.THROUGHPUT, payloadLength);
            if (offset < 0) {
                writer.publish();
                if (System.nanoTime() >= endNs) {
                    return;
                }
                checkAlive(offset, child);
                Thread.onSpinWait();
                continue;
            }
            ByteBuffer buffer = writer.buffer();
            buffer.put(offset, filler, 0, payloadLength);
            buffer.putLong(offset + BenchFrames.STAMP_OFFSET, 0L);
            writer.commit();
            if (++batch == 64) {
                batch = 0;
                writer.publish();
                if (System.nanoTime() >= endNs) {
                    writer.publish();
                    return;
                }
            }
        }
    }

    /**
     * Sends one frame, waiting (spinning) while the ring is full. A negative {@code stampNs} stamps
     * the moment the frame is filled: the channel's latency starts there, and a writer that was
     * descheduled before it (the load generator, not the channel) is reported as lateness instead.
     */
    private void send(RingWriter writer, int type, long stampNs, ChildReader child) {
        int offset;
        while ((offset = writer.tryClaim(type, payloadLength)) < 0) {
            writer.publish();
            checkAlive(offset, child);
            Thread.onSpinWait();
        }
        ByteBuffer buffer = writer.buffer();
        buffer.put(offset, filler, 0, payloadLength);
        buffer.putLong(offset + BenchFrames.STAMP_OFFSET, stampNs < 0 ? System.nanoTime() : stampNs);
        buffer.putLong(offset + BenchFrames.NUMBER_OFFSET, writer.framesCommitted());
        writer.commit();
    }

    private void checkAlive(int claimResult, ChildReader child) {
        if (claimResult == RingWriter.FENCED) {
            throw new IllegalStateException("the reader moved to a newer epoch: " + uri);
        }
        if (!child.isAlive()) {
            throw new IllegalStateException("the benchmark reader process died; see its messages above");
        }
    }

    private void say(String phase) {
        if (progress != null) {
            progress.println("bench channel: " + phase);
            progress.flush();
        }
    }
}
