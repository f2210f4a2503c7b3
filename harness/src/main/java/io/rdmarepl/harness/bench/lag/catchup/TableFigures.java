package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The primary's pgbench figures after the load: per table its rows and the sum of its balance (history: of its deltas).
 * {@link #inconsistencies} checks them against what the clients saw committed, pgbench's own consistency rule: the
 * backlog every replica is compared with ({@link ReplicaCheck}) must itself be the load's.
 *
 * @param values figure name ({@code "pgbench_accounts sum(abalance)"}) to value, in a fixed order
 */
record TableFigures(Map<String, Long> values) {
    /** Per table, the column summed. */
    private static final Map<String, String> SUMMED = summed();

    TableFigures {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    private static Map<String, String> summed() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("pgbench_accounts", "abalance");
        m.put("pgbench_tellers", "tbalance");
        m.put("pgbench_branches", "bbalance");
        m.put("pgbench_history", "delta");
        m.put("catchup_marker", "round");
        return m;
    }

    static TableFigures read(Endpoint server, String database) {
        Map<String, Long> values = new LinkedHashMap<>();
        try (Connection c = server.connect(database); Statement s = c.createStatement()) {
            for (Map.Entry<String, String> t : SUMMED.entrySet()) {
                try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(sum(" + t.getValue() + "), 0) FROM " + t.getKey())) {
                    rs.next();
                    values.put(t.getKey() + " count", rs.getLong(1));
                    values.put(t.getKey() + " sum(" + t.getValue() + ")", rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(server + " database " + database + ": cannot read the pgbench tables: " + e.getMessage(), e);
        }
        return new TableFigures(values);
    }

    /**
     * Against the clients' own count: one history row per committed transaction, each marker there, and every delta added
     * once to an account, and with tpcb-like to a teller and a branch too (the tables start at 0). Empty when consistent.
     *
     * @param committed     transactions the clients saw commit
     * @param markers       marker rows committed
     * @param accountsOnly  the load was simple-update: tellers and branches stay at 0
     */
    List<String> inconsistencies(long committed, long markers, boolean accountsOnly) {
        List<String> out = new ArrayList<>();
        if (figure("pgbench_history count") != committed) {
            out.add("pgbench_history holds " + figure("pgbench_history count") + " rows, the clients committed " + committed
                    + " transactions");
        }
        if (figure("catchup_marker count") != markers) {
            out.add("catchup_marker holds " + figure("catchup_marker count") + " rows, " + markers + " committed");
        }
        long deltas = figure("pgbench_history sum(delta)");
        for (String balance : List.of("pgbench_accounts sum(abalance)", "pgbench_tellers sum(tbalance)", "pgbench_branches sum(bbalance)")) {
            long expected = accountsOnly && !balance.startsWith("pgbench_accounts") ? 0 : deltas;
            if (figure(balance) != expected) {
                out.add(balance + " is " + figure(balance) + ", " + (expected == deltas ? "the history's deltas add up to "
                        : "simple-update leaves it at ") + expected);
            }
        }
        return out;
    }

    private long figure(String name) {
        Long value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no figure " + name + " in " + values.keySet());
        }
        return value;
    }
}
