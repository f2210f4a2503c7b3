package io.rdmarepl.harness.bench.lag;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The lag probe, the same for every replication system: the primary inserts rows whose {@code sent_at}
 * is {@code clock_timestamp()}; the replica's copy of the table has {@code applied_at}, set by a
 * {@code BEFORE INSERT} trigger marked {@code ENABLE ALWAYS}, so it fires under
 * {@code session_replication_role = replica}, which both the rdmarepl applier and PostgreSQL's own apply
 * worker run with. Both stamps come from one clock when the servers share a host. Shared by
 * {@code bench lag} and (to switch over) the demo's {@code DemoSchema}/{@code LagReport}.
 */
public final class ProbeTable {
    /** The probe on the primary. */
    public static final String PRIMARY = """
            CREATE TABLE probe (id bigint PRIMARY KEY, sent_at timestamptz NOT NULL DEFAULT clock_timestamp());
            """;

    /** The probe on the replica: the primary's columns, plus {@code applied_at} and its always-firing trigger. */
    public static final String REPLICA = PRIMARY + """
            ALTER TABLE probe ADD COLUMN applied_at timestamptz;
            CREATE FUNCTION probe_applied() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.applied_at := clock_timestamp(); RETURN NEW; END $$;
            CREATE TRIGGER probe_applied BEFORE INSERT ON probe FOR EACH ROW EXECUTE FUNCTION probe_applied();
            ALTER TABLE probe ENABLE ALWAYS TRIGGER probe_applied;
            """;

    /** One probe, {@code sent_at} by its default. */
    public static final String INSERT = "INSERT INTO probe (id) VALUES (?)";

    private ProbeTable() {
    }

    /** The probes with ids {@code first..last} the replica has applied, in id order. */
    public static List<ProbeSample> read(Connection replica, long first, long last) throws SQLException {
        List<ProbeSample> samples = new ArrayList<>();
        try (PreparedStatement query = replica.prepareStatement("""
                SELECT id, (extract(epoch FROM sent_at) * 1000000)::bigint, (extract(epoch FROM applied_at - sent_at) * 1000000)::bigint
                  FROM probe WHERE id BETWEEN ? AND ? AND applied_at IS NOT NULL ORDER BY id
                """)) {
            query.setLong(1, first);
            query.setLong(2, last);
            query.setFetchSize(10_000);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    samples.add(new ProbeSample(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                }
            }
        }
        return samples;
    }

    /** How many of the probes {@code first..last} a copy holds (a physical standby's: its rows carry no applied_at). */
    public static long count(Connection copy, long first, long last) throws SQLException {
        try (PreparedStatement query = copy.prepareStatement("SELECT count(*) FROM probe WHERE id BETWEEN ? AND ?")) {
            query.setLong(1, first);
            query.setLong(2, last);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** @return true when the replica holds probe {@code id} */
    public static boolean applied(Connection replica, long id) throws SQLException {
        try (PreparedStatement query = replica.prepareStatement("SELECT 1 FROM probe WHERE id = ?")) {
            query.setLong(1, id);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }
}
