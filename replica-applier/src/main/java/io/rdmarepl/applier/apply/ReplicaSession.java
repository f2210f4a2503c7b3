package io.rdmarepl.applier.apply;

import com.zaxxer.hikari.HikariDataSource;
import io.rdmarepl.applier.position.AppliedPositionStore;
import io.rdmarepl.format.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apply thread's connection to the replica, kept across groups with its prepared statements, and
 * replaced (statements and all) when it breaks.
 */
final class ReplicaSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaSession.class);
    /** Finds the sequence by name (no quoting to get wrong) and sets it in one round trip; no row: no such sequence. */
    private static final String SET_SEQUENCE = """
            SELECT pg_catalog.setval(c.oid, ?, ?)
              FROM pg_catalog.pg_class c
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relname = ? AND c.relkind = 'S'""";
    private final DataSource dataSource;
    private final AppliedPositionStore positions;
    private final StatementCache statements = new StatementCache();
    private final CommitWalPositions commits;
    private Connection connection;
    private PreparedStatement writePositionAndCommit;
    private PreparedStatement walInsertLsn;
    private PreparedStatement walFlushLsn;
    private PreparedStatement ownedSequences;
    private PreparedStatement setSequence;
    /** The connection's {@link BatchPipeline}, or null where pgjdbc allows none. */
    private BatchPipeline pipeline;
    /** Run the promotion's statement once, rolled back, when connecting (the replica is kept read-only for clients). */
    private final boolean rehearsePromotion;

    /**
     * @param commitsAsynchronously the replica commits with synchronous_commit off: commits read the WAL positions
     * @param rehearsePromotion     run the promotion's statement once, rolled back, when connecting
     */
    ReplicaSession(DataSource dataSource, AppliedPositionStore positions, boolean commitsAsynchronously, boolean rehearsePromotion) {
        this.dataSource = dataSource;
        this.positions = positions;
        this.commits = new CommitWalPositions(commitsAsynchronously);
        this.rehearsePromotion = rehearsePromotion;
    }

    /** The open connection (autocommit off), connecting first if needed. */
    Connection connection() throws SQLException {
        if (connection == null) {
            Connection c = dataSource.getConnection();
            try {
                c.setAutoCommit(false);
                writePositionAndCommit = positions.prepareWithCommit(c, commits.reads());
                walInsertLsn = c.prepareStatement("SELECT pg_catalog.pg_current_wal_insert_lsn()::text");
                walFlushLsn = c.prepareStatement("SELECT pg_catalog.pg_current_wal_flush_lsn()::text");
                setSequence = c.prepareStatement(SET_SEQUENCE);
                pipeline = BatchPipeline.open(c);
                ownedSequences = prepareOwnedSequences(c);
                if (rehearsePromotion) {
                    ReadOnlyGuard.rehearseWritable(c);
                }
            } catch (SQLException e) {
                closeQuietly(c);
                throw e;
            }
            connection = c;
            statements.connection(c);
        }
        return connection;
    }

    /**
     * {@link SequencePromoter}'s query, prepared and run once when this session connected (or now, if that
     * failed: applying does not wait on it).
     */
    PreparedStatement ownedSequences() throws SQLException {
        connection();
        if (ownedSequences == null) {
            ownedSequences = SequencePromoter.prepareOwnedQuery(connection);
        }
        return ownedSequences;
    }

    private static PreparedStatement prepareOwnedSequences(Connection c) throws SQLException {
        try {
            PreparedStatement owned = SequencePromoter.prepareOwnedQuery(c);
            c.commit();
            return owned;
        } catch (SQLException e) {
            c.rollback();
            LOG.warn("cannot prepare the owned-sequences query ahead of a promotion ({}); a promotion prepares it then",
                    e.getMessage());
            return null;
        }
    }

    /** The open connection's batch pipeline (connecting first if needed), or null where pgjdbc allows none. */
    BatchPipeline pipeline() throws SQLException {
        connection();
        return pipeline;
    }

    StatementCache statements() {
        return statements;
    }

    AppliedPositionStore positions() {
        return positions;
    }

    /** Records the position in the open transaction and commits it, in one round trip. */
    void writePositionAndCommit(long commitLsn, long txId, long epoch) throws SQLException {
        positions.bind(writePositionAndCommit, commitLsn, txId, epoch);
        commits.execute(writePositionAndCommit);
    }

    /** Runs this session's commit statements. */
    CommitWalPositions commits() {
        return commits;
    }

    /**
     * The replica's WAL insert position after the last commit, at or past its commit record: as read with a commit
     * that ran at or after {@code sinceNs}, else asked for now.
     */
    long walInsertLsnAfterCommitSince(long sinceNs) throws SQLException {
        long read = commits.insertLsnSince(sinceNs);
        return read != 0 ? read : walInsertLsn();
    }

    /**
     * Sets sequence {@code schema.name} to exactly {@code (lastValue, isCalled)}.
     *
     * @return false when the replica has no sequence of that name
     */
    boolean setSequence(String schema, String name, long lastValue, boolean isCalled) throws SQLException {
        connection();
        setSequence.setLong(1, lastValue);
        setSequence.setBoolean(2, isCalled);
        setSequence.setString(3, schema);
        setSequence.setString(4, name);
        try (ResultSet rows = setSequence.executeQuery()) {
            return rows.next();
        }
    }

    /** The replica's WAL insert position (after a commit: at or past its commit record). */
    long walInsertLsn() throws SQLException {
        return lsn(walInsertLsn);
    }

    /** How far the replica has flushed its WAL. */
    long walFlushLsn() throws SQLException {
        return lsn(walFlushLsn);
    }

    private long lsn(PreparedStatement query) throws SQLException {
        connection();
        long lsn;
        try (ResultSet rows = query.executeQuery()) {
            rows.next();
            lsn = Lsn.parse(rows.getString(1));
        }
        connection.commit();
        return lsn;
    }

    void rollback() {
        if (pipeline != null) {
            pipeline.discard();
        }
        if (connection != null) {
            try {
                connection.rollback();
            } catch (SQLException e) {
                discard();
            }
        }
    }

    /** Throws the connection away (broken, or its statements are stale). */
    void discard() {
        statements.close();
        pipeline = null;
        if (connection != null) {
            closeQuietly(connection);
            connection = null;
        }
    }

    /**
     * Closes the connection rather than giving it back to the pool, which would keep it open: this session is not
     * needed for a while (an apply worker after an initial copy). The next use opens another.
     */
    void closeConnection() {
        if (connection != null && dataSource instanceof HikariDataSource pool) {
            statements.close();
            pipeline = null;
            pool.evictConnection(connection);
            connection = null;
        }
        discard();
    }

    @Override
    public void close() {
        discard();
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // a broken connection; the pool replaces it
        }
    }
}
