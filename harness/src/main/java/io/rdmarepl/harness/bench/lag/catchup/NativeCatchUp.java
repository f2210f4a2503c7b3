package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.Slots;
import java.time.Duration;

/**
 * PostgreSQL's own logical replication catching up: a publication of the pgbench tables on the primary, a subscription
 * in {@link #targetDatabase()} on the replica server ({@code copy_data = false}: both sides are seeded alike;
 * {@code synchronous_commit} as {@code --native-sync} says). Paused with {@code ALTER SUBSCRIPTION ... DISABLE} (its
 * apply worker and walsender exit, the slot stays) and resumed with {@code ENABLE}: the launcher starts a new apply worker
 * and the walsender decodes the backlog from the slot's position.
 * <pre>
 *   primary --walsender (pgoutput)--> logical replication apply worker --> replica
 * </pre>
 */
final class NativeCatchUp implements CatchUpSystem {
    static final String NAME = "rdmarepl_catchup_native";
    private static final Duration SLOT_TIMEOUT = Duration.ofSeconds(60);

    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private final String synchronousCommit;
    private boolean attached;

    NativeCatchUp(Endpoint primary, String benchDatabase, Endpoint replica, String synchronousCommit) {
        this.primary = primary;
        this.benchDatabase = benchDatabase;
        this.replica = replica;
        this.synchronousCommit = synchronousCommit;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String label() {
        return "postgresql logical (sync " + synchronousCommit + ")";
    }

    @Override
    public Integer applyWorkers() {
        return null;
    }

    @Override
    public String transport() {
        return "logical";
    }

    @Override
    public String targetDatabase() {
        return NAME;
    }

    @Override
    public void attach(int round) {
        attached = true;
        primary.execute(benchDatabase, "CREATE PUBLICATION " + NAME + " FOR TABLE " + TpcbTables.list());
        String conninfo = primary.conninfo(benchDatabase).replace("'", "''");
        replica.execute(NAME, "CREATE SUBSCRIPTION " + NAME + " CONNECTION '" + conninfo + "' PUBLICATION " + NAME
                + " WITH (copy_data = false, synchronous_commit = '" + synchronousCommit + "')");
        Slots.awaitStreaming(primary, NAME, SLOT_TIMEOUT);
    }

    @Override
    public void pause() {
        replica.execute(NAME, "ALTER SUBSCRIPTION " + NAME + " DISABLE");
        Slots.awaitInactive(primary, NAME, SLOT_TIMEOUT);
    }

    @Override
    public void resume() {
        replica.execute(NAME, "ALTER SUBSCRIPTION " + NAME + " ENABLE");
    }

    @Override
    public String failure() {
        return null; // an apply worker that fails is restarted by PostgreSQL; a stuck one shows as the catch-up timeout
    }

    @Override
    public String describe() {
        return "pg_stat_subscription: " + replica.query(NAME, "SELECT row_to_json(s)::text FROM pg_stat_subscription s WHERE subname = '"
                + NAME + "'");
    }

    @Override
    public void detach() {
        if (!attached) {
            return;
        }
        attached = false;
        try {
            // drops the slot on the primary too (it connects even when the subscription is disabled)
            replica.execute(NAME, "DROP SUBSCRIPTION IF EXISTS " + NAME);
        } finally {
            Slots.drop(primary, NAME, Duration.ofSeconds(30));
            primary.execute(benchDatabase, "DROP PUBLICATION IF EXISTS " + NAME);
        }
    }
}
