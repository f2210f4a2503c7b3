package io.rdmarepl.harness.bench.copy;

/**
 * One way of copying the primary's pgbench tables into empty tables of a fresh database on the replica server
 * ({@link #targetDatabase()}). Timed from {@link #start()} until {@link #done()}; stopped, with what it created on the
 * servers removed, after every round.
 */
interface CopySystem extends AutoCloseable {
    /** "rdmarepl" or "postgresql". */
    String name();

    /** The replica-side database the copy fills (created with empty tables before each round). */
    String targetDatabase();

    /** Gets ready for round {@code round}, untimed (rdmarepl: the applier and its ring). */
    default void prepare(int round) throws Exception {
    }

    /** Starts the copy (from nothing: the slot is created by it) and returns at once. */
    void start() throws Exception;

    /** Whether the copy is complete on the replica, as the system itself reports it. */
    boolean done() throws Exception;

    /** Once {@link #done()}: what is wrong with how it ended, or null. */
    default String check() {
        return null;
    }

    /** Once {@link #done()}: where the time went, as far as the system can say (empty when it cannot). */
    default java.util.Map<String, Object> details() {
        return java.util.Map.of();
    }

    /** Why the copy stopped for good, or null while it runs. */
    String failure();

    /** How far it is, for the progress line: "812,345 rows applied". */
    String progress() throws Exception;

    /** What the system was set to, for the report. */
    java.util.Map<String, Object> settings();

    /** Stops and removes its slot, publication and subscription. Idempotent. */
    @Override
    void close();
}
