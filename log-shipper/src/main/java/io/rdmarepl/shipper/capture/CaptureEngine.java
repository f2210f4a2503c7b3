package io.rdmarepl.shipper.capture;

import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.embedded.Connect;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the Debezium embedded engine on its own thread and keeps the reason it stopped, if it did. */
public final class CaptureEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CaptureEngine.class);

    private final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "rdmarepl-capture");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile boolean stopped;

    public CaptureEngine(Properties properties, TransactionAssembler consumer) {
        this.engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(properties)
                .using((success, message, error) -> {
                    stopped = true;
                    if (!success) {
                        String reason = error != null && error.getMessage() != null ? rootMessage(error) : message;
                        failure.compareAndSet(null, reason);
                        LOG.error("capture stopped: {}", reason);
                    }
                })
                .notifying(consumer)
                .build();
    }

    public CaptureEngine start() {
        executor.execute(engine);
        return this;
    }

    /** Why capture stopped, or null while it runs (or after a clean stop). */
    public String failure() {
        return failure.get();
    }

    public boolean isStopped() {
        return stopped;
    }

    @Override
    public void close() {
        try {
            engine.close();
        } catch (IOException | IllegalStateException e) {
            LOG.debug("capture engine close: {}", e.getMessage()); // already stopped, for the reason kept in failure()
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("capture engine still running 30 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause == error ? String.valueOf(error.getMessage()) : error.getMessage() + " (" + cause.getMessage() + ")";
    }
}
