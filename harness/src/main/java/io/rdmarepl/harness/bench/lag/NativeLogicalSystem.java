package io.rdmarepl.harness.bench.lag;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * PostgreSQL's own logical replication as the system under test: a publication of the bench tables on the
 * primary, a subscription in {@link #targetDatabase()} on the replica server ({@code copy_data = false}: both
 * sides are seeded alike; {@code synchronous_commit} as {@code --native-sync} says). Its apply worker runs
 * with {@code session_replication_role = replica}, so the probe's {@code ENABLE ALWAYS} trigger stamps
 * {@code applied_at} as under rdmarepl. Subscription, its slot and the publication are dropped after every round.
 * Synchronous ({@code --mode sync}): once it streams, {@code synchronous_standby_names} lists its apply worker (whose
 * application_name is the subscription's name), so the primary's commits wait for its feedback (remote_apply: the
 * apply position it reports after each commit); cleared before the subscription goes.
 * <pre>
 *   primary --walsender (pgoutput)--> logical replication apply worker --> replica
 * </pre>
 */
final class NativeLogicalSystem implements ReplicationSystem {
    static final String NAME = "rdmarepl_lag_native";

    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final String synchronousCommit;
    private final boolean synchronous;
    private boolean started;

    NativeLogicalSystem(Endpoint primary, String benchDatabase, Endpoint replica, String synchronousCommit) {
        this(primary, benchDatabase, replica, synchronousCommit, false);
    }

    /** @param synchronous listed in synchronous_standby_names while it runs ({@code --mode sync}) */
    NativeLogicalSystem(Endpoint primary, String benchDatabase, Endpoint replica, String synchronousCommit, boolean synchronous) {
        this.primary = primary;
        this.benchDatabase = benchDatabase;
        this.replica = replica;
        this.synchronousCommit = synchronousCommit;
        this.synchronous = synchronous;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String transport() {
        return "logical";
    }

    @Override
    public String label() {
        return synchronous ? "postgresql logical sync" : "postgresql logical (sync " + synchronousCommit + ")";
    }

    @Override
    public boolean synchronous() {
        return synchronous;
    }

    @Override
    public Connection connectProbes() throws SQLException {
        return replica.connect(NAME);
    }

    @Override
    public String notSynchronous() {
        if (!synchronous) {
            return null;
        }
        String state = SynchronousStandbys.syncState(primary, NAME);
        return "sync".equals(state) ? null : "pg_stat_replication sync_state of " + NAME + ": " + state;
    }

    @Override
    public String targetDatabase() {
        return NAME;
    }

    String synchronousCommit() {
        return synchronousCommit;
    }

    @Override
    public void start(int round) {
        started = true;
        try {
            primary.execute(benchDatabase, "CREATE PUBLICATION " + NAME + " FOR TABLE " + BenchTables.publicationList());
            String conninfo = primary.conninfo(benchDatabase).replace("'", "''");
            replica.execute(NAME, "CREATE SUBSCRIPTION " + NAME + " CONNECTION '" + conninfo + "' PUBLICATION " + NAME
                    + " WITH (copy_data = false, synchronous_commit = '" + synchronousCommit + "')");
            Slots.awaitActive(primary, NAME, Duration.ofSeconds(60));
            if (synchronous) {
                SynchronousStandbys.require(primary, NAME);
            }
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
    }

    @Override
    public void measuring() {
        // nothing to snapshot: PostgreSQL has no stage timers
    }

    @Override
    public String failure() {
        return null; // an apply worker that fails is restarted by PostgreSQL; a stuck one shows as a catch-up timeout
    }

    @Override
    public String describe() {
        return "pg_stat_subscription: " + replica.query(NAME, "SELECT row_to_json(s)::text FROM pg_stat_subscription s WHERE subname = '"
                + NAME + "'");
    }

    @Override
    public void stop() {
        if (!started) {
            return;
        }
        started = false;
        try {
            if (synchronous) {
                SynchronousStandbys.clear(primary); // first: nothing may wait for the apply worker about to go
            }
        } finally {
            try {
                // drops the slot on the primary too (the subscription's connection still works)
                replica.execute(NAME, "DROP SUBSCRIPTION IF EXISTS " + NAME);
            } finally {
                Slots.drop(primary, NAME, Duration.ofSeconds(30));
                primary.execute(benchDatabase, Endpoint.NO_STANDBY_WAIT + "DROP PUBLICATION IF EXISTS " + NAME);
            }
        }
    }
}
