package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.e2e.FidelityLoss.Phase;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The hostile-schema suite on the native engine ({@code capture.engine=pgoutput}): the same schema, settings and
 * workload as {@link HostileSchemaIT}, and no known loss at all. The three cases that stop the Debezium engine for
 * good replicate exactly here: a timetz offset with seconds, columns whose names differ only by case, and intervals
 * at the type's limits (values travel as the server's text output, never parsed on the way).
 */
class PgOutputHostileSchemaIT extends HostileSchemaIT {
    @Override
    String engine() {
        return "pgoutput";
    }

    @Test
    @Order(3)
    @Override
    void aTimetzOffsetWithSecondsStopsTheStreamClearly() throws Exception {
        HostileSql.run(replication.primary(), HostileSql.statements("timetz-offset-seconds.sql"));
        replication.awaitCaughtUp();
        assertFidelity(Phase.STREAM);
    }

    @Test
    @Order(4)
    @Override
    void columnsWhoseNamesDifferOnlyByCaseStopCaptureClearly() throws Exception {
        try (java.sql.Connection c = replication.replica().connect("postgres"); java.sql.Statement s = c.createStatement()) {
            s.execute("SET default_transaction_read_only = off"); // the replica refuses clients' writes
            s.execute("CREATE TABLE case_twins (id int PRIMARY KEY, \"Value\" text, \"value\" text)");
        }
        HostileSql.run(replication.primary(), HostileSql.statements("case-twins.sql"));
        replication.awaitCaughtUp();
        assertFidelity(Phase.STREAM);
    }

    @Test
    @Order(5)
    @Override
    void anIntervalAtTheTypesLimitsStopsCaptureClearly() throws Exception {
        HostileSql.run(replication.primary(), HostileSql.statements("interval-limits.sql"));
        replication.awaitCaughtUp();
        assertFidelity(Phase.STREAM);
        assertThat(Replication.queryLong(replication.replica(), "SELECT count(*) FROM t_interval_limits"))
                .as("intervals at the type's limits on the replica").isEqualTo(2);
        // and through an initial copy, from a fresh slot
        replication.shipper().stop(java.time.Duration.ofSeconds(20));
        replication.primary().execute("SELECT pg_drop_replication_slot('rdmarepl')");
        replication.shipperSetting("snapshot.mode", "initial");
        replication.startShipper();
        replication.awaitSlotActive();
        replication.awaitCaughtUp();
        assertFidelity(Phase.COPY);
    }
}
