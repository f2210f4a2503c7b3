package io.rdmarepl.harness.bench.lag;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One system under test, replicating the bench database of the primary into {@link #targetDatabase()}
 * on the replica server. Started fresh for every round on fresh tables, stopped and cleaned up after.
 */
interface ReplicationSystem {

    /** "rdmarepl" or "postgresql". */
    String name();

    /** "shm", "softrdma", or "logical" / "physical" for PostgreSQL's own. */
    String transport();

    /** For people: "rdmarepl over shm". */
    default String label() {
        return name() + " " + transport();
    }

    /**
     * The replica-side database this system applies into (recreated before each round, with the probe's trigger), or
     * null when it brings its own copy of the bench database (a physical standby).
     */
    String targetDatabase();

    /** Where the probes arrive (the replica's {@link #targetDatabase()}, or the standby's bench database). */
    Connection connectProbes() throws SQLException;

    /** Whether the probes arrive stamped with {@code applied_at}: false for a physical standby, which replays WAL. */
    default boolean stampsApplied() {
        return true;
    }

    /** Whether commits on the primary wait for this system ({@code --mode sync}: listed in synchronous_standby_names). */
    default boolean synchronous() {
        return false;
    }

    /** For a synchronous system: why commits on the primary do not wait for it right now, or null when they do. */
    default String notSynchronous() {
        return null;
    }

    /** Starts replicating; returns once changes committed from now on are streamed (and, synchronous, waited for). */
    void start(int round) throws Exception;

    /** The measured window opens (after the warm-up). */
    void measuring();

    /** Why replication stopped for good, or null while it runs. */
    String failure();

    /** Current state, for an error message. */
    String describe();

    /** Stops, and removes what it created on the servers (slot, publication, subscription). Idempotent. */
    void stop();
}
