package io.rdmarepl.shipper;

import io.rdmarepl.channel.fragment.MessageAssembler;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.verbs.VerbsReaderEnd;
import io.rdmarepl.channel.verbs.VerbsSettings;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.RecordMaterializer;
import io.rdmarepl.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A standby stand-in: owns a ring (shm, or softrdma with {@link #overSoftRdma}), decodes every record into a list, and reports as durable
 * every transaction it received, up to a ceiling a test can hold back.
 */
final class RingCollector implements AutoCloseable {
    private final ReaderEnd end;
    private final RingReader reader;
    private final List<ChangeRecord> records = new ArrayList<>();
    private final List<Integer> beginFlags = new ArrayList<>();
    private final RecordHandler flags = new RecordHandler() {
        @Override
        public void onBegin(long txId, long commitLsn, long commitTimeUs, int flags) {
            beginFlags.add(flags);
        }
    };
    private final RecordDecoder decoder = new RecordDecoder();
    private final RecordMaterializer materializer = new RecordMaterializer();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long durableCeiling = -1L;
    private volatile long lastCommitLsn;
    private volatile long pollPauseNs;
    private volatile int pollFrames = 64;
    private volatile boolean holding;

    RingCollector(int capacity) {
        this(newPath(), capacity);
    }

    /** A standby on {@code path}; a second collector on the same path replaces the ring, as a restarted standby does. */
    RingCollector(Path path, int capacity) {
        this(ShmReaderEnd.create(path, capacity, 1, System.nanoTime(), true));
    }

    /**
     * A standby over softrdma on the loopback, at a port of its own. The shipper proves the channel secret it reads from
     * {@code RDMAREPL_CHANNEL_SECRET}, which this module's build sets for its tests.
     */
    static RingCollector overSoftRdma(int capacity) {
        ChannelSecurity secret = ChannelSecurity.fromEnvironment();
        if (secret == null) {
            throw new IllegalStateException(ChannelSecurity.SECRET_ENV + " is not set: log-shipper's pom sets it for its tests");
        }
        return new RingCollector(VerbsReaderEnd.listen(ChannelUri.parse("softrdma://127.0.0.1:0"),
                new RingSettings(capacity, 1, System.nanoTime(), true), secret, VerbsSettings.defaults()));
    }

    private RingCollector(ReaderEnd end) {
        this.end = end;
        this.reader = new RingReader(end);
        MessageAssembler assembler = new MessageAssembler((type, buffer, offset, length) -> {
            decoder.decode(buffer, offset, length, materializer);
            ChangeRecord record = materializer.last();
            synchronized (records) {
                records.add(record);
                if (record instanceof ChangeRecord.Begin) {
                    decoder.decode(buffer, offset, length, flags);
                }
            }
            if (record instanceof ChangeRecord.Commit commit) {
                lastCommitLsn = commit.commitLsn();
                long lsn = Long.compareUnsigned(commit.commitLsn(), durableCeiling) <= 0 ? commit.commitLsn() : durableCeiling;
                reader.feedback().appliedLsn(lsn);
                reader.feedback().durableLsn(lsn);
            }
        });
        this.thread = new Thread(() -> {
            while (running) {
                if (holding) {
                    // a standby that is there but reads nothing: its heartbeat moves, its position does not
                    reader.publishFeedback();
                    LockSupport.parkNanos(10_000_000);
                    continue;
                }
                int read = reader.poll(assembler, pollFrames);
                // not waits for something: a standby slowed down on purpose (slowDown), or idling on an empty ring
                if (pollPauseNs > 0) {
                    LockSupport.parkNanos(pollPauseNs);
                } else if (read == 0) {
                    LockSupport.parkNanos(50_000);
                }
            }
        }, "ring-collector");
        thread.setDaemon(true);
        thread.start();
    }

    static Path newPath() {
        Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of("target");
        return dir.resolve("rdmarepl-shipper-test-" + UUID.randomUUID());
    }

    Path path() {
        return ((ShmReaderEnd) end).path();
    }

    String uri() {
        return end instanceof ShmReaderEnd shm ? "shm://" + shm.path().toAbsolutePath() : end.uri();
    }

    /** Whether the shipper says it awaits this standby's feedback ({@link RingReader#writerAwaitsFeedback}). */
    boolean shipperAwaitsFeedback() {
        return reader.writerAwaitsFeedback();
    }

    /** Acknowledge nothing beyond {@code lsn} (unsigned; -1 = everything). */
    void holdDurableAt(long lsn) {
        durableCeiling = lsn;
    }

    /** Acknowledge nothing beyond what was received so far. */
    void holdDurableAtReceived() {
        durableCeiling = lastCommitLsn;
    }

    /** Acknowledges every transaction received so far, past the ceiling too, as a standby that made them durable. */
    void acknowledgeReceived() {
        durableCeiling = -1L;
        reader.feedback().appliedLsn(lastCommitLsn);
        reader.feedback().durableLsn(lastCommitLsn);
    }

    /** Reads up to 64 frames, then pauses {@code pauseNs}; 0: full speed. */
    void slowDown(long pauseNs) {
        pollFrames = 64;
        pollPauseNs = pauseNs;
    }

    /** Reads one frame, then pauses {@code pauseNs} (an initial copy's chunk is one record of about a chunk's size). */
    void slowDownPerFrame(long pauseNs) {
        pollFrames = 1;
        pollPauseNs = pauseNs;
    }

    /** Reads nothing until {@link #release()}, while still saying it is there: the writer fills the ring and waits. */
    void hold() {
        holding = true;
    }

    /** Reads again, at the pace {@link #slowDown} set. */
    void release() {
        holding = false;
    }

    List<ChangeRecord> records() {
        synchronized (records) {
            return new ArrayList<>(records);
        }
    }

    /** The flags of every Begin received, in order ({@code BEGIN_SNAPSHOT_CHUNK_FLAG} or 0). */
    List<Integer> beginFlags() {
        synchronized (records) {
            return new ArrayList<>(beginFlags);
        }
    }

    List<ChangeRecord> awaitRecords(Predicate<List<ChangeRecord>> done, long timeoutMs) {
        return Await.until("the records awaited", Duration.ofMillis(timeoutMs), this::records, done);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
        end.close();
    }
}
