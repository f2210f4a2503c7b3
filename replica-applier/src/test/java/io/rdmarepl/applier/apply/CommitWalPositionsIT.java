package io.rdmarepl.applier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.position.AppliedPositionStore;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group's commit reads the replica's WAL positions in its own round trip: the insert position it keeps must be the
 * one after the commit record (the durable position waits for the flush to pass it), and the session is in no
 * transaction after it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CommitWalPositionsIT extends ReplicaPerClass {
    @Test
    void shouldReadTheInsertPositionRightAfterTheCommitInItsRoundTrip() throws Exception {
        Sql.write(replica, "CREATE TABLE wal_positions (id int PRIMARY KEY)");
        AppliedPositionStore positions = new AppliedPositionStore("wal_positions");
        List<String> seen = new ArrayList<>();
        try (Connection c = replica.connect("postgres"); Statement s = c.createStatement()) {
            positions.createIfMissing(c);
            c.setAutoCommit(false);
            CommitWalPositions commits = new CommitWalPositions(true);
            // the server's own background records (running transactions, every 15 s) may land in between: 3 tries
            for (int id = 1; id <= 3 && !seen.contains("equal"); id++) {
                long startNs = System.nanoTime();
                s.execute("INSERT INTO wal_positions VALUES (" + id + ")");
                try (PreparedStatement commit = positions.prepareWithCommit(c, true)) {
                    positions.bind(commit, 0x100L * id, id, 1);
                    assertThat(commits.execute(commit)).as("the position's update count").isEqualTo(1);
                }
                long read = commits.insertLsnSince(startNs);
                long next = insertLsn(s); // nothing of this session's written since: the end of its commit record
                c.commit();
                seen.add(read == next ? "equal" : Lsn.format(read) + " before " + Lsn.format(next));
                assertThat(commits.flushLsnSince(startNs)).as("the flush position read with it").isNotZero();
            }
            assertThat(seen).as("the insert position right after each commit").contains("equal");
            CommitWalPositions none = new CommitWalPositions(true);
            assertThat(none.insertLsnSince(0)).as("nothing read yet").isZero();
            assertThat(commits.insertLsnSince(System.nanoTime() + 1)).as("none read since now").isZero();
            c.rollback(); // nothing open: undoes nothing
            assertThat(Sql.count(replica, "SELECT count(*) FROM wal_positions")).isEqualTo(seen.size());
        }
    }

    private static long insertLsn(Statement s) throws Exception {
        try (ResultSet rows = s.executeQuery("SELECT pg_catalog.pg_current_wal_insert_lsn()::text")) {
            rows.next();
            return Lsn.parse(rows.getString(1));
        }
    }
}
