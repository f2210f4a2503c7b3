package io.rdmarepl.harness.bench.lag;

import io.rdmarepl.harness.bench.PhysicalStandby;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * PostgreSQL's physical streaming replication as a synchronous standby ({@code --mode sync}, embedded servers only):
 * every round a fresh standby of the primary ({@link PhysicalStandby}: base backup, its own slot, started from the
 * embedded binaries), listed in {@code synchronous_standby_names} by its WAL receiver's application_name once it
 * streams. It replays WAL, so no trigger stamps the probes: it gives commit latency and throughput, no lag; the probes
 * are counted on the standby. Standby, slot and the setting are removed after every round.
 * <pre>
 *   primary --walsender (physical)--> walreceiver (flush) --> startup process (replay) = standby
 * </pre>
 */
final class NativePhysicalSystem implements ReplicationSystem {
    private final PostgresServer primaryServer;
    private final Endpoint primary;
    private final String benchDatabase;
    private PhysicalStandby standby;
    private boolean started;

    NativePhysicalSystem(PostgresServer primaryServer, Endpoint primary, String benchDatabase) {
        this.primaryServer = primaryServer;
        this.primary = primary;
        this.benchDatabase = benchDatabase;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String transport() {
        return "physical";
    }

    @Override
    public String label() {
        return "postgresql physical sync";
    }

    /** None on the replica server: the standby is a copy of the primary, bench database included. */
    @Override
    public String targetDatabase() {
        return null;
    }

    @Override
    public boolean synchronous() {
        return true;
    }

    @Override
    public boolean stampsApplied() {
        return false;
    }

    @Override
    public Connection connectProbes() throws SQLException {
        return new Endpoint(PostgresServer.HOST, standby.port(), PostgresServer.SUPERUSER, "").connect(benchDatabase);
    }

    @Override
    public void start(int round) throws Exception {
        started = true;
        try {
            standby = PhysicalStandby.create(primaryServer);
            SynchronousStandbys.require(primary, PhysicalStandby.APPLICATION_NAME);
        } catch (Exception | Error e) {
            stop();
            throw e;
        }
    }

    @Override
    public void measuring() {
        // nothing to snapshot: PostgreSQL has no stage timers
    }

    @Override
    public String notSynchronous() {
        String state = SynchronousStandbys.syncState(primary, PhysicalStandby.APPLICATION_NAME);
        return "sync".equals(state) ? null : "pg_stat_replication sync_state of " + PhysicalStandby.APPLICATION_NAME + ": " + state;
    }

    @Override
    public String failure() {
        return null; // a standby that stops streaming blocks the commits; that shows as a catch-up timeout
    }

    @Override
    public String describe() {
        return "pg_stat_replication: " + primary.query("postgres", "SELECT row_to_json(s)::text FROM pg_stat_replication s"
                + " WHERE application_name = '" + PhysicalStandby.APPLICATION_NAME + "'");
    }

    @Override
    public void stop() {
        if (!started) {
            return;
        }
        started = false;
        try {
            SynchronousStandbys.clear(primary); // first: nothing may wait for the standby about to go
        } finally {
            try {
                if (standby != null) {
                    standby.close();
                }
            } finally {
                standby = null;
                Slots.drop(primary, PhysicalStandby.SLOT, Duration.ofSeconds(30));
            }
        }
    }
}
