package io.rdmarepl.cli.bench.lag;

/**
 * One system under test, replicating the bench database of the primary into {@link #targetDatabase()}
 * on the replica server. Started fresh for every round on fresh tables, stopped and cleaned up after.
 */
interface ReplicationSystem {

    /** "rdmarepl" or "postgresql". */
    String name();

    /** "shm", "softrdma", or "logical" for PostgreSQL's own. */
    String transport();

    /** For people: "rdmarepl over shm". */
    default String label() {
        return name() + " " + transport();
    }

    /** The replica-side database this system applies into (recreated before each round). */
    String targetDatabase();

    /** Starts replicating; returns once changes committed from now on are streamed. */
    void start(int round);

    /** The measured window opens (after the warm-up). */
    void measuring();

    /** Why replication stopped for good, or null while it runs. */
    String failure();

    /** Current state, for an error message. */
    String describe();

    /** Stops, and removes what it created on the servers (slot, publication, subscription). Idempotent. */
    void stop();
}
