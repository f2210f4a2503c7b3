package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SequenceReadings;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At promotion, moves every sequence past what the old primary may have handed out, so that no value it gave out
 * is given out again. While streaming, the replica's sequences hold exactly the last state the shipper read on
 * the primary (every {@code sequence.sync.interval.ms}, and right before a switchover's catch-up marker); the
 * primary may have moved them after that reading. So, in the sequence's direction (down for a negative
 * increment):
 *
 * <ul>
 *   <li><b>every sequence the primary shipped</b> (owned by a column or not) goes to
 *       {@code last + headroom + moved}, where {@code last} is the last shipped {@code last_value} and
 *       {@code moved = max(step, rate × max(interval, now - newest))}: {@code step} is how far it moved between
 *       its last two shipped (distinct) readings, {@code rate = step / time between them}, {@code interval} is
 *       {@code promote.sequence.sync.interval.ms} and {@code newest} when its newest reading was taken. The
 *       primary cannot have moved it unobserved for longer than the window (it was read every interval, and it
 *       is fenced before promotion, so {@code now - newest} covers a reader that stopped), and {@code step} alone
 *       covers a burst that began inside the last interval: as long as the primary did not move it faster per
 *       interval than it did between the last two readings, no value it handed out is handed out again. With a
 *       single reading there is no rate: only the headroom.</li>
 *   <li><b>every ascending sequence owned by a column</b> (serial, identity) also goes past the highest value
 *       the replica holds in that column or the applier saw, plus the headroom: rows applied after the last
 *       reading (or from a shipper that ships no sequences) are covered too.</li>
 * </ul>
 *
 * The larger target wins, clamped to the sequence's bounds; a sequence is never moved backwards (a target at or
 * behind its current {@code last_value} leaves it as it is).
 */
final class SequencePromoter {
    private static final Logger LOG = LoggerFactory.getLogger(SequencePromoter.class);
    private static final String OWNED = """
            SELECT pg_catalog.format('%I.%I', sn.nspname, s.relname),
                   pg_catalog.format('%I.%I', tn.nspname, t.relname),
                   pg_catalog.quote_ident(a.attname),
                   q.seqmax, q.seqincrement, q.seqmin
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
    private static final String SHIPPED = """
            SELECT r.i, pg_catalog.format('%I.%I', n.nspname, c.relname), q.seqmax, q.seqincrement, q.seqmin
              FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS r(schema, name, i)
              JOIN pg_catalog.pg_namespace n ON n.nspname = r.schema
              JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = r.name AND c.relkind = 'S'
              JOIN pg_catalog.pg_sequence q ON q.seqrelid = c.oid""";

    /**
     * What promotion adds.
     *
     * @param headroom   {@code promote.sequence.headroom}
     * @param intervalUs {@code promote.sequence.sync.interval.ms}, in µs
     * @param nowUs      the promotion's time, µs since the epoch
     */
    record Rule(long headroom, long intervalUs, long nowUs) {
        /** Where {@code history}'s sequence must go, moving in the direction of {@code increment}'s sign. */
        long target(SequenceReadings.History history, long increment) {
            boolean up = increment > 0;
            long last = history.last().lastValue();
            long moved = 0;
            SequenceReadings.Reading previous = history.previous();
            if (previous != null) {
                double step = up ? (double) last - previous.lastValue() : (double) previous.lastValue() - last;
                if (step > 0) {
                    long gapUs = history.last().readTimeUs() - previous.readTimeUs();
                    long windowUs = Math.max(intervalUs, nowUs - history.newestUs());
                    double estimate = gapUs > 0 ? Math.max(step, step * windowUs / gapUs) : step;
                    moved = estimate >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(estimate);
                }
            }
            long margin = saturatedAdd(headroom, moved); // 0 .. Long.MAX_VALUE: its negation cannot overflow
            return saturatedAdd(last, up ? margin : -margin);
        }
    }

    /** One sequence to consider: its bounds, and what the rows and the readings ask of it. */
    private static final class Plan {
        final String sequence;
        final long max;
        final long increment;
        final long min;
        String table;
        String column;
        Long fromReadings;

        Plan(String sequence, long max, long increment, long min) {
            this.sequence = sequence;
            this.max = max;
            this.increment = increment;
            this.min = min;
        }
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
            owned.executeQuery().close();
        } catch (SQLException e) {
            owned.close();
            throw e;
        }
        return owned;
    }

    /**
     * @param ownedQuery from {@link #prepareOwnedQuery} on {@code connection}: run again now, so a sequence
     *                   created since is found
     * @return the value each sequence was set to
     */
    static Map<String, Long> promote(Connection connection, PreparedStatement ownedQuery, SequenceTracker tracker,
                                     SequenceReadings readings, Rule rule) throws SQLException {
        Map<String, Plan> plans = new TreeMap<>();
        try (ResultSet rows = ownedQuery.executeQuery()) {
            while (rows.next()) {
                Plan plan = new Plan(rows.getString(1), rows.getLong(4), rows.getLong(5), rows.getLong(6));
                plan.table = rows.getString(2);
                plan.column = rows.getString(3);
                plans.put(plan.sequence, plan);
            }
        }
        planShipped(connection, readings.snapshot(), rule, plans);
        Map<String, Long> set = new TreeMap<>();
        for (Plan plan : plans.values()) {
            Long target = target(connection, plan, tracker, rule.headroom());
            if (target != null) {
                try (PreparedStatement setval = connection.prepareStatement("SELECT pg_catalog.setval(?::regclass, ?, true)")) {
                    setval.setString(1, plan.sequence);
                    setval.setLong(2, target);
                    setval.execute();
                }
                set.put(plan.sequence, target);
            }
        }
        return set;
    }

    /** Finds each shipped sequence on the replica and records where its readings put it. */
    private static void planShipped(Connection connection, List<SequenceReadings.History> shipped, Rule rule,
                                    Map<String, Plan> plans) throws SQLException {
        if (shipped.isEmpty()) {
            return;
        }
        String[] schemas = new String[shipped.size()];
        String[] names = new String[shipped.size()];
        for (int i = 0; i < schemas.length; i++) {
            schemas[i] = shipped.get(i).schema();
            names[i] = shipped.get(i).name();
        }
        boolean[] found = new boolean[schemas.length];
        try (PreparedStatement query = connection.prepareStatement(SHIPPED)) {
            query.setArray(1, connection.createArrayOf("text", schemas));
            query.setArray(2, connection.createArrayOf("text", names));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    int i = (int) rows.getLong(1) - 1;
                    found[i] = true;
                    Plan plan = plans.get(rows.getString(2));
                    if (plan == null) {
                        plan = new Plan(rows.getString(2), rows.getLong(3), rows.getLong(4), rows.getLong(5));
                        plans.put(plan.sequence, plan);
                    }
                    plan.fromReadings = clamp(plan, rule.target(shipped.get(i), plan.increment));
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < found.length; i++) {
            if (!found[i]) {
                missing.add(schemas[i] + "." + names[i]);
            }
        }
        if (!missing.isEmpty()) {
            LOG.warn("promotion: the replica has no sequence {} (shipped by the primary): not set", missing);
        }
    }

    /** The value to set, or null to leave the sequence as it is. */
    private static Long target(Connection connection, Plan plan, SequenceTracker tracker, long headroom) throws SQLException {
        boolean up = plan.increment > 0;
        boolean fromRows = up && plan.table != null; // descending owned sequences: nothing in the rows to move past
        if (!fromRows && plan.fromReadings == null) {
            return null;
        }
        long last;
        long highest = fromRows ? tracker.highest(plan.sequence) : SequenceTracker.NONE;
        try (Statement statement = connection.createStatement();
             ResultSet current = statement.executeQuery("SELECT "
                     + (fromRows ? "(SELECT max(" + plan.column + ")::bigint FROM " + plan.table + ")" : "NULL::bigint")
                     + ", last_value FROM " + plan.sequence)) {
            current.next();
            long tableMax = current.getLong(1);
            if (!current.wasNull()) {
                highest = Math.max(highest, tableMax);
            }
            last = current.getLong(2);
        }
        Long target = plan.fromReadings;
        if (highest != SequenceTracker.NONE) {
            long pastRows = clamp(plan, saturatedAdd(highest, headroom));
            target = target == null ? pastRows : Math.max(target, pastRows);
        }
        if (target == null || (up ? target <= last : target >= last)) {
            return null; // never backwards
        }
        return target;
    }

    private static long clamp(Plan plan, long value) {
        return Math.max(plan.min, Math.min(plan.max, value));
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }
}
