package io.rdmarepl.harness.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.idle.BackoffIdleStrategy;
import io.rdmarepl.channel.idle.BusySpinIdleStrategy;
import io.rdmarepl.channel.idle.IdleStrategy;
import io.rdmarepl.channel.ring.FrameHandler;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingReader;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.HdrHistogram.Histogram;

/**
 * The reader process of {@code rdmarepl bench channel}: owns the ring (as a standby does), records
 * one-way latency and throughput, prints {@code READY} when the ring exists and one
 * {@code RESULT {json}} line at the end.
 *
 * <p>Arguments: uri capacity idle(spin|backoff)
 */
public final class ChannelBenchReader implements FrameHandler {
    static final String READY = "READY";
    static final String RESULT = "RESULT ";

    private final Histogram latencyNs = new Histogram(3_600_000_000_000L, 3);
    private long throughputFrames;
    private long throughputBytes;
    private long throughputStartNs;
    private long endNs;
    private long allocationAtStart = -1;
    private long allocationAtEnd;
    private long measuredFrames;
    private boolean done;

    public static void main(String[] args) throws Exception {
        ChannelUri uri = ChannelUri.parse(args[0]);
        int capacity = Integer.parseInt(args[1]);
        IdleStrategy idle = args[2].equals("spin") ? new BusySpinIdleStrategy() : BackoffIdleStrategy.defaults();
        RingSettings settings = new RingSettings(capacity, 1, ThreadLocalRandom.current().nextLong(), true);
        try (ReaderEnd end = Transports.openReader(uri, settings, ChannelSecurity.fromEnvironment())) {
            RingReader reader = new RingReader(end);
            ThreadAllocation.currentThreadAllocatedBytes(); // load the management classes now, not mid-measurement
            System.out.println(READY);
            System.out.flush();
            ChannelBenchReader bench = new ChannelBenchReader();
            while (!bench.done) {
                idle.idle(reader.poll(bench, 256));
            }
            Map<String, Object> result = bench.result();
            result.put("incomplete_reads", reader.incompleteReads());
            System.out.println(RESULT + new ObjectMapper().writeValueAsString(result));
            System.out.flush();
        }
    }

    @Override
    public void onFrame(int type, int flags, ByteBuffer buffer, int payloadOffset, int payloadLength) {
        long nowNs = System.nanoTime();
        switch (type) {
            case BenchFrames.WARMUP -> latencyNs.recordValue(Math.max(0, nowNs - buffer.getLong(payloadOffset + BenchFrames.STAMP_OFFSET)));
            case BenchFrames.LATENCY -> {
                if (allocationAtStart < 0) {
                    // warm-up frames took the same path, so it is compiled by now; start afresh
                    latencyNs.reset();
                    allocationAtStart = ThreadAllocation.currentThreadAllocatedBytes();
                }
                latencyNs.recordValue(Math.max(0, nowNs - buffer.getLong(payloadOffset + BenchFrames.STAMP_OFFSET)));
                measuredFrames++;
            }
            case BenchFrames.THROUGHPUT -> {
                if (throughputFrames == 0) {
                    throughputStartNs = nowNs;
                }
                throughputFrames++;
                throughputBytes += payloadLength;
                measuredFrames++;
            }
            case BenchFrames.END -> {
                allocationAtEnd = ThreadAllocation.currentThreadAllocatedBytes();
                endNs = nowNs;
                done = true;
            }
            default -> {
            }
        }
    }

    private Map<String, Object> result() {
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("p50", latencyNs.getValueAtPercentile(50));
        latency.put("p90", latencyNs.getValueAtPercentile(90));
        latency.put("p99", latencyNs.getValueAtPercentile(99));
        latency.put("p999", latencyNs.getValueAtPercentile(99.9));
        latency.put("max", latencyNs.getMaxValue());
        latency.put("mean", Math.round(latencyNs.getMean()));
        latency.put("samples", latencyNs.getTotalCount());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("latency_ns", latency);
        result.put("throughput_frames", throughputFrames);
        result.put("throughput_payload_bytes", throughputBytes);
        result.put("throughput_ns", endNs - throughputStartNs);
        long allocated = allocationAtStart < 0 ? -1 : allocationAtEnd - allocationAtStart;
        result.put("reader_allocated_bytes", allocated);
        result.put("reader_measured_frames", measuredFrames);
        return result;
    }
}
