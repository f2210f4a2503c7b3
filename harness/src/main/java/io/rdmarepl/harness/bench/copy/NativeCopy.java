package io.rdmarepl.harness.bench.copy;

import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.harness.bench.lag.Slots;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's own initial copy: a publication of the pgbench tables on the primary and
 * {@code CREATE SUBSCRIPTION ... WITH (copy_data = true)} in {@link #targetDatabase()}; its table sync workers (up to
 * {@code max_sync_workers_per_subscription}, 2 by default) copy the tables, each in a snapshot of its own slot. Done
 * when {@code pg_subscription_rel} shows every table ready ({@code r}).
 */
final class NativeCopy implements CopySystem {
    static final String NAME = "rdmarepl_copy_native";

    private final Endpoint primary;
    private final String benchDatabase;
    private final Endpoint replica;
    private Connection watch;
    private boolean started;

    NativeCopy(Endpoint primary, String benchDatabase, Endpoint replica) {
        this.primary = primary;
        this.benchDatabase = benchDatabase;
        this.replica = replica;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String targetDatabase() {
        return NAME;
    }

    @Override
    public void start() throws SQLException {
        started = true;
        watch = replica.connect(NAME);
        primary.execute(benchDatabase, "CREATE PUBLICATION " + NAME + " FOR TABLE " + PgbenchTables.list());
        String conninfo = primary.conninfo(benchDatabase).replace("'", "''");
        replica.execute(NAME, "CREATE SUBSCRIPTION " + NAME + " CONNECTION '" + conninfo + "' PUBLICATION " + NAME
                + " WITH (copy_data = true)");
    }

    @Override
    public boolean done() throws SQLException {
        long[] ready = ready();
        return ready[1] == PgbenchTables.NAMES.size() && ready[0] == ready[1];
    }

    /** Tables ready, tables known to the subscription. */
    private long[] ready() throws SQLException {
        try (Statement s = watch.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE r.srsubstate = 'r'),"
                + " count(*) FROM pg_subscription_rel r JOIN pg_subscription s ON s.oid = r.srsubid WHERE s.subname = '" + NAME + "'")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    @Override
    public String failure() {
        return null; // a sync worker that fails is restarted by PostgreSQL; a stuck one shows as the timeout
    }

    @Override
    public String progress() throws SQLException {
        long[] ready = ready();
        try (Statement s = watch.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT COALESCE(sum(tuples_processed), 0) FROM pg_stat_progress_copy WHERE datname = '" + NAME + "'")) {
            rs.next();
            return String.format(Locale.ROOT, "%d of %d tables ready, %,d rows in the COPYs running", ready[0],
                    PgbenchTables.NAMES.size(), rs.getLong(1));
        }
    }

    @Override
    public Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("copy_data", true);
        m.put("max_sync_workers_per_subscription", replica.query("postgres", "SHOW max_sync_workers_per_subscription"));
        return m;
    }

    @Override
    public void close() {
        if (!started) {
            return;
        }
        started = false;
        try {
            if (watch != null) {
                watch.close();
            }
        } catch (SQLException ignored) {
            // the database is dropped next
        } finally {
            watch = null;
            try {
                replica.execute(NAME, "DROP SUBSCRIPTION IF EXISTS " + NAME); // its slots on the primary go with it
            } finally {
                Slots.drop(primary, NAME, Duration.ofSeconds(30));
                primary.execute(benchDatabase, "DROP PUBLICATION IF EXISTS " + NAME);
            }
        }
    }
}
