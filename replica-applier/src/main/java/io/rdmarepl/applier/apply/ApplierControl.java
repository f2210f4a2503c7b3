package io.rdmarepl.applier.apply;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * What the lifecycle ({@code io.rdmarepl.applier.role.ApplierRole}) and the admin endpoint ask of a running
 * applier. {@link Applier} is the real one; tests of the lifecycle fake it.
 */
public interface ApplierControl extends AutoCloseable {

    /** The latest snapshot; never null once started. */
    ApplierStatus status();

    /** The /status document. */
    Map<String, Object> statusDocument();

    /** Since the ring last delivered a frame (a heartbeat or a change), in ms. */
    long lastMessageAgeMs();

    /** Whether /health answers 200. */
    boolean healthy();

    /**
     * Applies everything the ring holds, then completes with the applied LSN; from now on the primary's lease is no
     * longer renewed by this standby.
     */
    CompletableFuture<Long> drain();

    /** Calls a drain off: streaming again, renewing the primary's lease again. */
    void follow();

    /** Stops applying and makes the replica writable; returns the sequences it set. */
    Map<String, Long> promote(Duration timeout) throws SQLException, TimeoutException, InterruptedException;

    /** From now on the ring refuses frames of any other epoch. */
    void epoch(int epoch);

    /** Stops applying and releases the ring, so another applier may create it at the same URI. */
    @Override
    void close();
}
