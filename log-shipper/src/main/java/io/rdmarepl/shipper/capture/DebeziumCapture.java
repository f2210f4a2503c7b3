package io.rdmarepl.shipper.capture;

import java.util.Properties;

/** {@code capture.engine=debezium}: Debezium's embedded engine feeding the {@link TransactionAssembler}. */
public final class DebeziumCapture implements Capture {
    private final CaptureEngine engine;
    private final TransactionAssembler assembler;
    private final String snapshotMode;

    public DebeziumCapture(Properties engineProperties, TransactionAssembler assembler, String snapshotMode) {
        this.assembler = assembler;
        this.snapshotMode = snapshotMode;
        this.engine = new CaptureEngine(engineProperties, assembler).start();
    }

    @Override
    public String engine() {
        return "debezium";
    }

    @Override
    public String snapshotMode() {
        return snapshotMode;
    }

    @Override
    public String failure() {
        return engine.failure();
    }

    @Override
    public boolean isStopped() {
        return engine.isStopped();
    }

    @Override
    public boolean copying() {
        return assembler.copying();
    }

    @Override
    public long copyLsn() {
        return assembler.copyLsn();
    }

    @Override
    public long transactionsShipped() {
        return assembler.transactionsShipped();
    }

    @Override
    public long lastShippedLsn() {
        return assembler.lastShippedLsn();
    }

    @Override
    public int pendingAcknowledgements() {
        return assembler.pendingAcknowledgements();
    }

    @Override
    public void drain() {
        assembler.drain();
    }

    @Override
    public boolean drained() {
        return assembler.drained();
    }

    @Override
    public void close() {
        engine.close();
    }
}
