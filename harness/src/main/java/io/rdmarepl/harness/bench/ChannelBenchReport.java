package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.verbs.VerbsProviders;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Turns the two processes' figures into the report: a JSON object, and a table for people. */
final class ChannelBenchReport {
    private ChannelBenchReport() {
    }

    static Map<String, Object> build(ChannelBenchCommand options, ChannelUri uri, ChannelBenchWriter.Result result,
                                     Map<String, Object> hiccups) {
        Map<String, Object> reader = result.reader();
        long frames = number(reader.get("throughput_frames"));
        long payloadBytes = number(reader.get("throughput_payload_bytes"));
        long ns = Math.max(1, number(reader.get("throughput_ns")));
        double seconds = ns / 1e9;
        double framesPerS = frames / seconds;

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("transport", uri.transport().scheme());
        report.put("uri", uri.text());
        if (uri.transport() != ChannelUri.Transport.SHM) {
            report.put("provider", VerbsProviders.label(uri.transport()));
        }
        report.put("frame_size", options.frameSize());
        report.put("payload_size", BenchFrames.payloadLength(options.frameSize()));
        report.put("rate", options.rate());
        report.put("seconds", options.seconds());
        report.put("warmup_seconds", options.warmupSeconds());
        report.put("capacity", options.capacity());
        report.put("reader_idle", options.idle());
        report.put("latency_ns", reader.get("latency_ns"));
        report.put("latency_worst_send_lateness_ns", result.behindScheduleNs());

        Map<String, Object> throughput = new LinkedHashMap<>();
        throughput.put("frames_per_s", Math.round(framesPerS));
        throughput.put("mb_per_s", round1(framesPerS * options.frameSize() / 1e6));
        throughput.put("payload_mb_per_s", round1(payloadBytes / seconds / 1e6));
        throughput.put("frames", frames);
        report.put("throughput", throughput);

        Map<String, Object> allocation = new LinkedHashMap<>();
        long readerFrames = Math.max(1, number(reader.get("reader_measured_frames")));
        long writerFrames = Math.max(1, result.writerFrames());
        allocation.put("writer", perFrame(result.writerAllocatedBytes(), writerFrames));
        allocation.put("reader", perFrame(number(reader.get("reader_allocated_bytes")), readerFrames));
        report.put("alloc_bytes_per_frame", allocation);
        report.put("back_pressure_events", result.backPressureEvents());
        report.put("incomplete_reads", reader.get("incomplete_reads"));
        report.put("platform_hiccups", hiccups);
        report.put("machine", machine());
        return report;
    }

    @SuppressWarnings("unchecked")
    static String table(Map<String, Object> report) {
        Map<String, Object> latency = (Map<String, Object>) report.get("latency_ns");
        Map<String, Object> throughput = (Map<String, Object>) report.get("throughput");
        Map<String, Object> allocation = (Map<String, Object>) report.get("alloc_bytes_per_frame");
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "rdmarepl bench channel: %s (%s), %d-byte frames, ring %d bytes, reader idle %s%n",
                report.get("transport"), report.get("uri"), report.get("frame_size"), report.get("capacity"), report.get("reader_idle")));
        if (report.get("provider") != null) {
            out.append("provider: ").append(report.get("provider")).append(System.lineSeparator());
        }
        out.append(String.format(Locale.ROOT, "one-way latency at %d frames/s, %s samples after %ss warm-up (ns):%n",
                report.get("rate"), latency.get("samples"), report.get("warmup_seconds")));
        out.append(String.format(Locale.ROOT, "  %10s %10s %10s %10s %10s%n", "p50", "p90", "p99", "p99.9", "max"));
        out.append(String.format(Locale.ROOT, "  %10s %10s %10s %10s %10s%n", latency.get("p50"), latency.get("p90"),
                latency.get("p99"), latency.get("p999"), latency.get("max")));
        out.append(String.format(Locale.ROOT, "max throughput: %,d frames/s, %,.1f MB/s of frames (%,.1f MB/s payload)%n",
                number(throughput.get("frames_per_s")), (Double) throughput.get("mb_per_s"),
                (Double) throughput.get("payload_mb_per_s")));
        out.append(String.format(Locale.ROOT, "allocation per frame in steady state: writer %s B, reader %s B%n",
                allocation.get("writer"), allocation.get("reader")));
        Map<String, Object> hiccups = (Map<String, Object>) report.get("platform_hiccups");
        out.append(String.format(Locale.ROOT, "platform: a spinning thread lost the CPU for > 50 us %s times/s (worst %s us);"
                        + " latency tails at or above that are the host's, not the ring's%n",
                hiccups.get("gaps_over_50us_per_s"), hiccups.get("worst_gap_us")));
        return out.toString();
    }

    private static Map<String, Object> machine() {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        machine.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        return machine;
    }

    private static Object perFrame(long bytes, long frames) {
        return bytes < 0 ? "unsupported" : round2((double) bytes / frames);
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0L;
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
