package io.rdmarepl.harness.bench;

import io.rdmarepl.channel.shm.ShmPaths;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.ring.FrameDescriptor;
import io.rdmarepl.channel.ring.RingDescriptor;
import io.rdmarepl.channel.verbs.NativeVerbsCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdmarepl bench channel}: the ring alone, writer and reader in two processes.
 *
 * <pre>
 *   this process                                   child process
 *   ChannelBenchWriter --- frames (one-sided) ---> [ ring ] ---> ChannelBenchReader
 *                        (shm: mapped file; softrdma / rdma: RDMA WRITEs over DiSNI)
 *      paced at --rate, then flat out                 HdrHistogram of now - stamp
 *      &lt;--------------- feedback (consumer position) ---
 * </pre>
 */
@Command(name = "channel",
        mixinStandardHelpOptions = true,
        description = {"One-way latency at a fixed rate and maximum throughput of the ring, writer and reader in two processes.",
                "Latency is the time from when the writer fills a frame until the reader holds it (monotonic clock, same host); a ring the reader lets fill up counts, a writer descheduled before sending is reported as lateness."})
public final class ChannelBenchCommand implements Callable<Integer> {

    @Option(names = "--transport", defaultValue = "shm",
            description = "Transport: shm (same-host shared memory), softrdma (the verbs code path over the software RDMA provider:"
                    + " emulation over TCP on loopback) or rdma (DiSNI native verbs; needs an RDMA NIC). Default: ${DEFAULT-VALUE}.")
    String transport;

    @Option(names = "--uri", description = "Channel URI; default: shm:///dev/shm/rdmarepl-bench-<pid> (or the temp dir without"
            + " /dev/shm), softrdma://127.0.0.1:<free port>, rdma://127.0.0.1:7471.")
    String uri;

    @Option(names = "--frame-size", defaultValue = "256",
            description = "Bytes each frame occupies in the ring, header and trailer included (multiple of 8). Default: ${DEFAULT-VALUE}.")
    int frameSize;

    @Option(names = "--seconds", defaultValue = "10",
            description = "Length of each measured phase (latency, then throughput). Default: ${DEFAULT-VALUE}.")
    int seconds;

    @Option(names = "--warmup-seconds", defaultValue = "2",
            description = "Paced frames sent and discarded before measuring. Default: ${DEFAULT-VALUE}.")
    int warmupSeconds;

    @Option(names = "--rate", defaultValue = "100000",
            description = "Frames per second in the latency phase. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(names = "--capacity", defaultValue = "8388608",
            description = "Ring data area in bytes (power of two). Default: ${DEFAULT-VALUE} (8 MiB).")
    int capacity;

    @Option(names = "--idle", defaultValue = "spin",
            description = "Reader idle strategy: spin (one core, lowest latency) or backoff (spin, yield, park). Default: ${DEFAULT-VALUE}.")
    String idle;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ChannelUri channelUri = validate();
        // one secret per run, handed to the reader process through its environment
        ChannelSecurity security = channelUri.transport() == ChannelUri.Transport.SHM ? null : ChannelSecurity.random();
        if (!json) {
            spec.commandLine().getErr().println("bench channel: measuring platform hiccups for 1 s");
        }
        Map<String, Object> hiccups = PlatformHiccups.measure(1_000_000_000L);
        ChannelBenchWriter.Result result;
        try (ChildReader child = ChildReader.start(channelUri, capacity, idle, security)) {
            result = new ChannelBenchWriter(channelUri, security, frameSize, rate, warmupSeconds, seconds,
                    json ? null : spec.commandLine().getErr()).run(child);
        }
        Map<String, Object> report = ChannelBenchReport.build(this, channelUri, result, hiccups);
        if (json) {
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(report));
        } else {
            spec.commandLine().getOut().print(ChannelBenchReport.table(report));
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    private ChannelUri validate() {
        StringBuilder problems = new StringBuilder();
        ChannelUri.Transport chosen = switch (transport) {
            case "shm" -> ChannelUri.Transport.SHM;
            case "softrdma" -> ChannelUri.Transport.SOFTRDMA;
            case "rdma" -> ChannelUri.Transport.RDMA;
            default -> null;
        };
        if (chosen == null) {
            problems.append("\n  --transport ").append(transport).append(": must be shm, softrdma or rdma");
        }
        if (frameSize < BenchFrames.minFrameSize() || frameSize % FrameDescriptor.FRAME_ALIGNMENT != 0) {
            problems.append("\n  --frame-size ").append(frameSize).append(": must be a multiple of 8, at least ")
                    .append(BenchFrames.minFrameSize());
        }
        try {
            RingDescriptor.checkCapacity(capacity);
            if (frameSize > FrameDescriptor.alignedFrameLength(FrameDescriptor.maxPayloadLength(capacity))) {
                problems.append("\n  --frame-size ").append(frameSize).append(": larger than an eighth of --capacity ").append(capacity);
            }
        } catch (IllegalArgumentException e) {
            problems.append("\n  --capacity: ").append(e.getMessage());
        }
        if (seconds < 1) {
            problems.append("\n  --seconds ").append(seconds).append(": must be at least 1");
        }
        if (warmupSeconds < 0) {
            problems.append("\n  --warmup-seconds ").append(warmupSeconds).append(": must not be negative");
        }
        if (rate < 1 || rate > 10_000_000) {
            problems.append("\n  --rate ").append(rate).append(": must be 1..10000000 frames per second");
        }
        if (!idle.equals("spin") && !idle.equals("backoff")) {
            problems.append("\n  --idle ").append(idle).append(": must be spin or backoff");
        }
        ChannelUri channelUri = null;
        try {
            channelUri = ChannelUri.parse(uri != null ? uri : defaultUri(chosen == null ? ChannelUri.Transport.SHM : chosen));
            if (chosen != null && channelUri.transport() != chosen) {
                problems.append("\n  --uri ").append(uri).append(": is ").append(channelUri.transport().scheme())
                        .append("://, but --transport is ").append(transport);
            } else if (chosen == ChannelUri.Transport.RDMA) {
                List<String> missing = NativeVerbsCheck.problems();
                if (!missing.isEmpty()) {
                    problems.append("\n  --transport rdma: DiSNI native verbs cannot run on this host (use --transport softrdma):\n    - ")
                            .append(String.join("\n    - ", missing));
                }
            }
        } catch (IllegalArgumentException e) {
            problems.append("\n  --uri: ").append(e.getMessage());
        }
        if (problems.length() > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid options:" + problems);
        }
        new RingSettings(capacity, 1, 0, true);
        return channelUri;
    }

    private static String defaultUri(ChannelUri.Transport chosen) {
        if (chosen == ChannelUri.Transport.SOFTRDMA) {
            return "softrdma://127.0.0.1:" + freePort();
        }
        if (chosen == ChannelUri.Transport.RDMA) {
            return "rdma://127.0.0.1:7471";
        }
        return "shm://" + ShmPaths.ring("rdmarepl-bench-" + ProcessHandle.current().pid());
    }

    private static int freePort() {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port for softrdma: " + e.getMessage(), e);
        }
    }

    int frameSize() {
        return frameSize;
    }

    int seconds() {
        return seconds;
    }

    int warmupSeconds() {
        return warmupSeconds;
    }

    int rate() {
        return rate;
    }

    int capacity() {
        return capacity;
    }

    String idle() {
        return idle;
    }
}
