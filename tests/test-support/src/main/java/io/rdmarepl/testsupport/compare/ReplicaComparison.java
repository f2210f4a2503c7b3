package io.rdmarepl.testsupport.compare;

import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Replica = primary, checked so that it can fail: every table's rows in their type-exact text form and every
 * sequence's position, with each difference named (table, key, column, both values).
 * <pre>
 * ComparisonReport report = ReplicaComparison.between(primary, replica).schemas("public").run();
 * assertThat(report.equal()).as("%s", report).isTrue();
 * </pre>
 * <ul>
 *   <li>Tables: every ordinary and partitioned table of the schemas (default: every schema of the primary but the
 *       system ones and {@code rdmarepl}), or the tables named. A partitioned table is compared through its root,
 *       partitions included, and its partitions are not compared again on their own: the replica's content is
 *       what the root holds, however (or whether) the replica partitions it. An ordinary table is read
 *       {@code ONLY}: an inheritance child is a table of its own.</li>
 *   <li>Columns: every column of the primary's table, bound by name on the replica; a column the replica lacks is a
 *       difference (the others are still compared); columns only the replica has are ignored and listed.</li>
 *   <li>Values: {@code ROW("a", "b", ...)::text} (no alias a column could shadow), each column through its type's
 *       output function, read with the same session settings on both sides ({@link ServerSession#SETTINGS}) in
 *       one read-only snapshot per side. NULL, '' and 'NULL' differ, -0 and 0 differ, NaN equals NaN.</li>
 *   <li>Rows are multisets (a keyless table's duplicate rows count). A row whose key (primary key, else replica
 *       identity index) is on both sides with other values is reported column by column under that key.</li>
 *   <li>Sequences: {@code (last_value, is_called)} of every sequence of the schemas, read from the sequence.</li>
 * </ul>
 * Neither server is written to.
 */
public final class ReplicaComparison {
    /** Opens one side's session; the database is null for caller-given connections. */
    private interface Opener {
        ServerSession open(String database) throws SQLException;
    }

    private final Opener primary;
    private final Opener replica;
    private final boolean connections;
    private String database = "postgres";
    private List<String> schemas;
    private List<String> tables;
    private boolean sequences = true;

    private ReplicaComparison(Opener primary, Opener replica, boolean connections) {
        this.primary = primary;
        this.replica = replica;
        this.connections = connections;
    }

    /** Compares database {@code postgres} (see {@link #database(String)}) of the two servers. */
    public static ReplicaComparison between(PostgresServer primary, PostgresServer replica) {
        Objects.requireNonNull(primary, "primary");
        Objects.requireNonNull(replica, "replica");
        return new ReplicaComparison(d -> ServerSession.open("primary", primary, d), d -> ServerSession.open("replica", replica, d), false);
    }

    /**
     * Compares through connections the caller owns (any PostgreSQL JDBC connection, e.g. from
     * {@code DriverManager.getConnection(url)}); they must not be inside a transaction. The comparison runs its own
     * read-only transaction on each, rolls it back and leaves the connections open, with their settings and
     * auto-commit as they were.
     */
    public static ReplicaComparison between(Connection primary, Connection replica) {
        Objects.requireNonNull(primary, "primary");
        Objects.requireNonNull(replica, "replica");
        return new ReplicaComparison(d -> ServerSession.adopt("primary", primary), d -> ServerSession.adopt("replica", replica), true);
    }

    /**
     * @param database the database compared on both servers; default {@code postgres}
     * @throws IllegalStateException when comparing through connections: they decide the database
     */
    public ReplicaComparison database(String database) {
        if (connections) {
            throw new IllegalStateException("comparing through connections: they decide the database, not database(\"" + database + "\")");
        }
        this.database = Objects.requireNonNull(database, "database");
        return this;
    }

    /**
     * @param schemas the schemas whose tables and sequences are compared (each must exist on the primary); default:
     *                every schema of the primary but pg_*, information_schema and rdmarepl
     */
    public ReplicaComparison schemas(String... schemas) {
        if (schemas.length == 0) {
            throw new IllegalArgumentException("schemas(): name at least one schema");
        }
        this.schemas = List.of(schemas);
        return this;
    }

    /**
     * @param tables the only tables compared, as SQL names them ({@code public.t1}, {@code "Odd"."T"}; each must be a
     *               table of the primary); sequences are still those of the schemas
     */
    public ReplicaComparison tables(String... tables) {
        if (tables.length == 0) {
            throw new IllegalArgumentException("tables(): name at least one table");
        }
        this.tables = List.of(tables);
        return this;
    }

    /** @param sequences whether sequence positions are compared; default true */
    public ReplicaComparison sequences(boolean sequences) {
        this.sequences = sequences;
        return this;
    }

    /**
     * @throws SQLException naming the server (and the table or sequence) that could not be read
     */
    public ComparisonReport run() throws SQLException {
        try (ServerSession p = primary.open(database); ServerSession r = replica.open(database)) {
            List<String> chosenSchemas;
            if (schemas != null) {
                Catalog.requireSchemas(p, schemas);
                chosenSchemas = schemas;
            } else {
                chosenSchemas = Catalog.userSchemas(p);
            }
            List<Catalog.Name> chosenTables = new ArrayList<>();
            if (tables != null) {
                for (String table : tables) {
                    chosenTables.add(Catalog.resolveTable(p, table));
                }
            } else {
                chosenTables.addAll(Catalog.tables(p, chosenSchemas));
            }
            boolean fastPath = Catalog.encoding(p).equals(Catalog.encoding(r));

            List<TableResult> tableResults = new ArrayList<>();
            List<Difference> differences = new ArrayList<>();
            long count = 0;
            for (Catalog.Name table : chosenTables) {
                DifferenceLog log = new DifferenceLog();
                tableResults.add(TableComparator.compare(p, r, table, fastPath, log));
                differences.addAll(log.listed());
                count += log.count();
            }
            List<SequenceResult> sequenceResults = new ArrayList<>();
            if (sequences) {
                for (Catalog.Name sequence : Catalog.sequences(p, chosenSchemas)) {
                    SequenceResult result = compareSequence(p, r, sequence);
                    sequenceResults.add(result);
                    if (result.replicaState() == null) {
                        differences.add(new Difference(Difference.Kind.SEQUENCE_MISSING, result.sequence(), null, null,
                                result.primaryState(), null));
                        count++;
                    } else if (!result.equal()) {
                        differences.add(new Difference(Difference.Kind.SEQUENCE_DIFFERS, result.sequence(), null, null,
                                result.primaryState(), result.replicaState()));
                        count++;
                    }
                }
            }
            return new ComparisonReport(tableResults, sequenceResults, differences, count);
        }
    }

    private static SequenceResult compareSequence(ServerSession p, ServerSession r, Catalog.Name sequence) throws SQLException {
        String primaryState = Catalog.sequenceState(p, sequence);
        String replicaState = Catalog.hasSequence(r, sequence) ? Catalog.sequenceState(r, sequence) : null;
        return new SequenceResult(sequence.display(), primaryState, replicaState);
    }
}
