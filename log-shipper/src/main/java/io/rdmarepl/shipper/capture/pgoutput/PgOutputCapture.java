package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import io.rdmarepl.shipper.capture.Capture;
import io.rdmarepl.shipper.capture.CopyPoints;
import io.rdmarepl.shipper.capture.PrimaryPreflight;
import io.rdmarepl.shipper.capture.PublishedTables;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.ship.ShipPipeline;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code capture.engine=pgoutput}: the shipper owns the replication connection, the way PostgreSQL's own apply worker
 * does. One thread blocks on the socket and decodes each pgoutput message into the change stream as it arrives
 * ({@link PgOutputDecoder}); a committed transaction goes to the ship pipeline from inside the decoder's callback.
 * The slot is confirmed from the standby handlers' thread the moment the required standbys hold a transaction
 * ({@link ShippedPositions}: the standbys acknowledge commit LSNs, the slot and a waiting synchronous commit need the
 * commit record's end), without waiting for the reading thread. While nothing is pending, a keepalive's WAL end is
 * confirmed too, so WAL the publication does not cover is not retained, and a synchronous commit that changed
 * nothing published is released.
 *
 * <pre>
 *   walsender --XLogData--> [rdmarepl-capture] poll -> PgOutputDecoder -> TransactionSink -> ShipPipeline
 *        ^                                                                                       |
 *        +---- standby status update (flush = end LSN) <-- AckTracker listener <-- standbys' feedback
 * </pre>
 */
public final class PgOutputCapture implements Capture {
    private static final Logger LOG = LoggerFactory.getLogger(PgOutputCapture.class);
    private static final long MAX_TRANSACTION_BYTES = PgOutputDecoder.DEFAULT_MAX_TRANSACTION_BYTES;

    private final ShipperConfig config;
    private final ShipPipeline pipeline;
    private final boolean sync;
    private final Runnable beforeMarker;
    private final Runnable slotCreated;
    private final String snapshotMode;
    private final ShippedPositions positions = new ShippedPositions();
    private final NativeInitialCopy copy;
    private final CatalogTypeNames typeNames;
    private final PgOutputDecoder decoder;
    private final Thread thread;
    private volatile ReplicationConnection connection;
    private volatile String failure;
    private volatile boolean stopped;
    private volatile boolean closed;
    private volatile boolean draining;
    private volatile boolean copying;
    /** Late by this much, the stream is read in larger bites ({@link ReplicationConnection#paceReadsWhile}). */
    private volatile long copyLsn;
    private volatile long lastShippedLsn;
    private volatile long transactionsShipped;
    private volatile String startStep = "connecting";
    /** Commit time of the last transaction shipped (capture thread only). */
    private long lastCommitTimeUs;

    /**
     * Starts capturing on a thread of its own.
     *
     * @param snapshotMode {@code initial} (no slot yet: create it, copy from its snapshot, then stream) or {@code no_data}
     * @param beforeMarker run on the capture thread right before a transaction holding a catch-up marker is shipped
     * @param slotCreated  run on the capture thread once it created the slot, before the copy (strict sync holds commits
     *                     from there: {@link io.rdmarepl.shipper.sync.SyncGate#holdCommits})
     */
    public PgOutputCapture(ShipperConfig config, ShipPipeline pipeline, String snapshotMode, Runnable beforeMarker,
                           Runnable slotCreated) {
        this.config = config;
        this.pipeline = pipeline;
        this.sync = config.sync().enabled();
        this.beforeMarker = beforeMarker;
        this.slotCreated = slotCreated;
        this.snapshotMode = snapshotMode;
        this.copying = "initial".equals(snapshotMode);
        this.copy = new NativeInitialCopy(pipeline, config.snapshotChunkBytes(), config.snapshotParallelTables());
        this.typeNames = new CatalogTypeNames(config);
        this.decoder = new PgOutputDecoder(typeNames, new Sink(), MAX_TRANSACTION_BYTES);
        pipeline.acks().onAcknowledged(this::acknowledged);
        this.thread = new Thread(this::run, "rdmarepl-capture");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            ReplicationConnection replication = setUp();
            Handler handler = new Handler();
            while (!closed) {
                replication.poll(handler);
            }
        } catch (ReplicationException e) {
            if (!closed) {
                fail(e.getMessage());
            }
        } catch (PgOutputException e) {
            fail(e.getMessage());
        } catch (SQLException e) {
            fail("primary " + config.databaseDescription() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("capture stopped", e);
                fail(String.valueOf(e.getMessage()));
            }
        } finally {
            stopped = true;
            typeNames.close();
        }
    }

    private void fail(String reason) {
        if (failure == null) {
            failure = reason;
            LOG.error("capture stopped: {}", reason);
        }
    }

    /** Publication, slot (and the initial copy from its snapshot), then streaming from the slot's position. */
    private ReplicationConnection setUp() throws SQLException, ReplicationException {
        boolean slotExists;
        int serverVersion;
        try (Connection sql = PrimaryPreflight.connect(config)) {
            if (PublicationSetup.ensure(sql, config)) {
                LOG.info("created publication {} ({})", config.publicationName(),
                        config.publicationTables().isEmpty() ? "all tables" : config.publicationTables());
            }
            serverVersion = Integer.parseInt(single(sql, "SHOW server_version_num", null));
            slotExists = single(sql, "SELECT slot_name FROM pg_catalog.pg_replication_slots WHERE slot_name = ?",
                    config.slotName()) != null;
        }
        ReplicationConnection replication = ReplicationConnection.open(endpoint());
        connection = replication;
        if (closed) {
            replication.close();
            throw new ReplicationException(ReplicationException.Reason.CLOSED, "capture closed while starting");
        }
        String slot = ReplicationCommands.quoteIdentifier(config.slotName());
        boolean modern = serverVersion >= 150000;
        if (!slotExists) {
            // PostgreSQL builds a new slot's starting point only once every transaction running on the primary ended
            startStep = "creating slot " + config.slotName() + ": waits until the transactions running on the primary end";
        }
        if (!slotExists && copying) {
            List<String[]> created = replication.simpleQuery("CREATE_REPLICATION_SLOT " + slot + " LOGICAL pgoutput"
                    + (modern ? " (SNAPSHOT 'export')" : " EXPORT_SNAPSHOT"));
            long consistentPoint = Lsn.parse(created.get(0)[1]);
            copyLsn = consistentPoint;
            try (Connection sql = PrimaryPreflight.connect(config)) {
                CopyPoints.record(sql, config.slotName(), consistentPoint);
            }
            LOG.info("created slot {} at {}: copying the published tables from its snapshot, then streaming",
                    config.slotName(), Lsn.format(consistentPoint));
            slotCreated.run();
            startStep = "initial copy";
            positions.shipped(consistentPoint, consistentPoint); // pending before any chunk can be acknowledged
            copy.run(() -> PrimaryPreflight.connect(config), PublishedTables.of(config), created.get(0)[2], consistentPoint,
                    () -> closed);
            lastShippedLsn = consistentPoint;
            transactionsShipped++;
        } else if (!slotExists) {
            replication.simpleQuery("CREATE_REPLICATION_SLOT " + slot + " LOGICAL pgoutput"
                    + (modern ? " (SNAPSHOT 'nothing')" : " NOEXPORT_SNAPSHOT"));
            LOG.info("created slot {}: streaming from now on", config.slotName());
            slotCreated.run();
        }
        copying = false;
        startStep = "starting to stream";
        int protocol = ProtocolVersion.forServer(serverVersion);
        Map<String, String> options = new LinkedHashMap<>();
        options.put("proto_version", Integer.toString(protocol));
        options.put("publication_names", ReplicationCommands.publicationNames(List.of(config.publicationName())));
        options.put("messages", "true");
        if (ProtocolVersion.streams(protocol)) {
            options.put("streaming", "on");
        }
        long start = slotConfirmedFlush();
        replication.startLogical(config.slotName(), 0, options);
        replication.paceReadsBy(this::lateUs);
        // a walsender counts as a synchronous standby only once it reported a flush position: report where the slot
        // stands now, before any transaction arrives
        confirm(positions.confirmIdle(start));
        startStep = null;
        LOG.info("streaming slot {} of {} (pgoutput proto_version {}, publication {})", config.slotName(),
                config.databaseDescription(), protocol, config.publicationName());
        return replication;
    }

    private long slotConfirmedFlush() throws SQLException {
        try (Connection sql = PrimaryPreflight.connect(config)) {
            String lsn = single(sql, "SELECT confirmed_flush_lsn::text FROM pg_catalog.pg_replication_slots WHERE slot_name = ?",
                    config.slotName());
            return lsn == null ? 0 : Lsn.parse(lsn);
        }
    }

    private ReplicationEndpoint endpoint() {
        return PrimaryEndpoint.of(config);
    }

    /**
     * How late the stream is: how long ago the last transaction shipped committed (the shipper runs beside its
     * primary, on its clock). A sync-mode commit waits for every read, so 0 then.
     */
    private long lateUs() {
        return sync || lastCommitTimeUs == 0 ? 0 : Math.max(0, System.currentTimeMillis() * 1000L - lastCommitTimeUs);
    }

    /** A standby handler saw the quorum move: confirm to the slot at once (any thread). */
    private void acknowledged(long acknowledgedLsn) {
        confirm(positions.acknowledged(acknowledgedLsn));
    }

    private void confirm(long confirmedLsn) {
        ReplicationConnection replication = connection;
        if (confirmedLsn == 0 || replication == null || !replication.isStreaming()) {
            return;
        }
        try {
            replication.sendStatus(confirmedLsn, confirmedLsn, confirmedLsn, false);
        } catch (ReplicationException e) {
            LOG.debug("status update not sent: {}", e.getMessage()); // the reading thread reports the broken stream
        }
    }

    /** The reading thread's view of the stream. */
    private final class Handler implements XLogDataHandler {
        @Override
        public void onXLogData(long walStart, long walEnd, long sendTimeUs, ByteBuffer payload, int offset, int length) {
            decoder.decode(payload, offset, length, walStart, walEnd);
        }

        @Override
        public void onKeepalive(long walEnd, long sendTimeUs, boolean replyRequested) {
            if (decoder.idle() && !draining) {
                long before = positions.confirmed();
                long confirmed = positions.confirmIdle(walEnd);
                if (confirmed != before) {
                    confirm(confirmed);
                }
            }
        }
    }

    /** Whole transactions from the decoder, on the reading thread. */
    private final class Sink implements TransactionSink {
        @Override
        public void onTransaction(ByteBuffer records, int length, int recordCount, long txId, long commitLsn, long endLsn,
                                  long commitTimeUs, boolean holdsMarker) {
            if (draining) {
                return; // not shipped, not confirmed: the slot sends it again after the restart
            }
            if (holdsMarker) {
                beforeMarker.run(); // the primary is fenced now: its final sequences go ahead of the marker
            }
            // pending before it is published: a standby may acknowledge it before publish returns, and an
            // acknowledgement that finds nothing pending confirms nothing, leaving the slot behind until the next one
            positions.shipped(commitLsn, endLsn);
            pipeline.publishTransaction(records, recordCount, TransactionSink::recordLength, commitLsn, commitTimeUs);
            lastShippedLsn = commitLsn;
            lastCommitTimeUs = commitTimeUs;
            transactionsShipped++;
            long held = pipeline.acks().acknowledged();
            if (Lsn.compare(held, commitLsn) >= 0) {
                // sent again after a restart, and the standbys held it already: no acknowledgement will move for it, and
                // a synchronous commit waiting for it would wait for good
                acknowledged(held);
            } else if (sync) {
                pipeline.acks().awaiting(commitLsn); // the handlers read feedback at once, not at their next heartbeat
            }
        }

        @Override
        public void onEmptyTransaction(long txId, long commitLsn, long endLsn) {
            if (!draining) {
                positions.passedOver(commitLsn, endLsn);
                if (positions.allConfirmed()) {
                    confirm(positions.confirmed());
                }
            }
        }
    }

    private static String single(Connection sql, String query, String parameter) throws SQLException {
        try (PreparedStatement statement = sql.prepareStatement(query)) {
            if (parameter != null) {
                statement.setString(1, parameter);
            }
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    @Override
    public String engine() {
        return "pgoutput";
    }

    @Override
    public String snapshotMode() {
        return snapshotMode;
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public boolean isStopped() {
        return stopped;
    }

    @Override
    public boolean copying() {
        return copying;
    }

    @Override
    public long copyLsn() {
        return copyLsn;
    }

    @Override
    public java.util.Map<String, Object> copyProgress(boolean everyTable) {
        return copying ? copy.progress(everyTable) : null;
    }

    @Override
    public String startStep() {
        return startStep;
    }

    @Override
    public long transactionsShipped() {
        return transactionsShipped;
    }

    @Override
    public long lastShippedLsn() {
        return lastShippedLsn;
    }

    @Override
    public int pendingAcknowledgements() {
        return positions.pending();
    }

    @Override
    public void drain() {
        draining = true;
    }

    @Override
    public boolean drained() {
        return draining && positions.allConfirmed();
    }

    @Override
    public void close() {
        closed = true;
        ReplicationConnection replication = connection;
        if (replication != null) {
            replication.close();
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("capture thread still running 10 s after close");
        }
    }
}
