package io.rdmarepl.shipper.encode;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.rdmarepl.shipper.capture.DebeziumConnectionFactory;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Test harness: a real Debezium embedded engine (pgoutput, in-memory offsets) on a test-support server, with
 * {@link DebeziumValueSettings} merged in and the shipper's connection factory, collecting every SourceRecord into a queue. Every wait has a deadline.
 */
final class DebeziumCapture implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private final BlockingQueue<SourceRecord> records = new LinkedBlockingQueue<>();
    private final List<SourceRecord> all = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "encode-test-debezium");
        t.setDaemon(true);
        return t;
    });
    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;

    private DebeziumCapture(Properties properties) {
        engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(properties)
            .notifying(event -> {
                records.add(event.record());
                all.add(event.record());
            })
            .using((success, message, error) -> {
                if (!success) {
                    failure.set(error != null ? error : new IllegalStateException(message));
                }
            })
            .build();
        executor.execute(engine);
    }

    /** Starts capturing {@code tables} (schema.table) of database postgres, with the given snapshot mode. */
    static DebeziumCapture start(PostgresServer server, String name, String snapshotMode, String... tables) {
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "0");
        p.setProperty("topic.prefix", name);
        p.setProperty("database.hostname", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(server.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("database.password", "");
        p.setProperty("database.dbname", "postgres");
        p.setProperty("plugin.name", "pgoutput");
        p.setProperty("slot.name", name);
        p.setProperty("publication.name", name);
        p.setProperty("publication.autocreate.mode", "filtered");
        p.setProperty("table.include.list", String.join(",", List.of(tables)).replace(".", "\\."));
        p.setProperty("snapshot.mode", snapshotMode);
        p.setProperty("provide.transaction.metadata", "true");
        p.setProperty("poll.interval.ms", "10");
        p.setProperty("errors.max.retries", "0");
        // the shipper's connection factory: every session with CaptureSessionSettings, as in production
        p.setProperty("database.connection.factory.class", DebeziumConnectionFactory.class.getName());
        p.putAll(DebeziumValueSettings.properties());
        return new DebeziumCapture(p);
    }

    /** Waits until the replication slot streams (the engine's slot is active). */
    DebeziumCapture awaitStreaming(PostgresServer server, String slot) {
        Await.until("slot " + slot + " active", DEADLINE, () -> {
            checkFailure(); // an AssertionError: not retried
            try (var c = server.connect("postgres"); var s = c.createStatement();
                 var rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
                return rs.next() && rs.getBoolean(1);
            }
        });
        return this;
    }

    /** The next data-change record (op present) matching {@code filter}; transaction and heartbeat records skipped. */
    SourceRecord next(Predicate<SourceRecord> filter) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            checkFailure();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no matching change event within " + DEADLINE);
            }
            SourceRecord record = records.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
            if (record != null && record.value() instanceof Struct value && value.schema().field("op") != null
                && filter.test(record)) {
                return record;
            }
        }
    }

    /** The next data-change record on {@code table} (source.table). */
    SourceRecord nextOn(String table) throws InterruptedException {
        return next(r -> table.equals(((Struct) r.value()).getStruct("source").getString("table")));
    }

    /** Every record received since start, of any kind, in arrival order (a copy). */
    List<SourceRecord> all() {
        synchronized (all) {
            return new ArrayList<>(all);
        }
    }

    /** Every record received so far, of any kind (drains the queue). */
    List<SourceRecord> drain() {
        List<SourceRecord> out = new ArrayList<>();
        records.drainTo(out);
        return out;
    }

    private void checkFailure() {
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("Debezium engine failed: " + t, t);
        }
    }

    @Override
    public void close() throws Exception {
        engine.close();
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
            executor.shutdownNow();
        }
    }
}
