package io.rdmarepl.harness.bench.lag.catchup;

/**
 * One system catching up: it replicates the primary's bench database into {@link #targetDatabase()} on the replica
 * server. Each round it is attached to fresh tables and paused before the load, resumed alone afterwards (timed until
 * the replica holds the marker), and detached.
 */
interface CatchUpSystem {
    /** "rdmarepl" or "postgresql". */
    String name();

    /** For people and the report: "rdmarepl over shm, apply.workers=2". */
    String label();

    /** rdmarepl's {@code apply.workers}; null for PostgreSQL's. */
    Integer applyWorkers();

    /** rdmarepl's ring transport; "logical" for PostgreSQL's. */
    String transport();

    /** The replica-side database it applies into; also its slot's (and publication's) name. */
    String targetDatabase();

    /** Starts replicating into the (fresh, seeded) target: its slot exists and is streamed from when this returns. */
    void attach(int round) throws Exception;

    /** Stops consuming, keeping the slot: the primary keeps the WAL from now on. Returns once nothing streams from the slot. */
    void pause() throws Exception;

    /** Consumes again from where the slot stands; returns at once (the catch-up is timed from the call). */
    void resume() throws Exception;

    /** Why replication stopped for good, or null while it runs. */
    String failure();

    /** Once caught up: where the time went, as far as the system can say (empty when it cannot). */
    default java.util.Map<String, Object> details() {
        return java.util.Map.of();
    }

    /** Current state, for an error message. */
    String describe();

    /** Stops and removes what it created on the servers (slot, publication, subscription). Idempotent. */
    void detach();
}
