package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.deleteKey;
import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.nul;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static io.rdmarepl.applier.testing.Records.update;
import static io.rdmarepl.applier.testing.Records.updateKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.applier.testing.Records;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Dependency-aware batching against a one-row-at-a-time model: random interleavings of inserts, updates (key changes
 * too), deletes, unique-value swaps across rows and truncates, over tables with row-level write sets ({@code pa},
 * {@code pb}), a second unique constraint ({@code pu}: ordered per table) and no key ({@code pf}, REPLICA IDENTITY
 * FULL), all sent at once so that many transactions land in one group. The replica must end equal to the model,
 * which applies every change alone and in source order, without the applier ever pausing (a reordered conflict shows
 * as a unique violation or a row not found, both pause it). One replica and one applier for all tries.
 */
class ReorderedBatchingPropertyIT {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final int KEYS = 12;
    protected static PostgresServer replica;
    private static ApplierFixture fixture;
    private static int fixtures;
    protected static long txId;
    protected static long lsn = 1_000;

    /** One step of the workload; {@code a}, {@code b} pick rows and values, {@link Model} makes it valid. */
    record Step(int kind, int a, int b) {
    }

    @BeforeContainer
    static void start() {
        replica = PostgresServer.replica(Durability.FAST);
        Sql.write(replica, "CREATE TABLE pa (id int PRIMARY KEY, v int);"
                + " CREATE TABLE pb (id int PRIMARY KEY, w text);"
                + " CREATE TABLE pu (id int PRIMARY KEY, u int NOT NULL UNIQUE, v int);"
                + " CREATE TABLE pf (v int, w text);"
                // pt's trigger reads pa: it must see pa exactly as the primary had it when pt's row was written
                + " CREATE TABLE pt (id int PRIMARY KEY, v int);"
                + " CREATE FUNCTION pt_reads_pa() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + "   NEW.v := (SELECT v FROM pa WHERE id = NEW.id); RETURN NEW; END $$;"
                + " CREATE TRIGGER pt_reads_pa BEFORE INSERT ON pt FOR EACH ROW EXECUTE FUNCTION pt_reads_pa();"
                + " ALTER TABLE pt ENABLE ALWAYS TRIGGER pt_reads_pa;"
                // po counts its updates with an ordinary trigger: it fires only with session_replication_role=origin
                + " CREATE TABLE po (id int PRIMARY KEY, v int, n int NOT NULL DEFAULT 0);"
                + " CREATE FUNCTION po_counts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                + "   NEW.n := OLD.n + 1; RETURN NEW; END $$;"
                + " CREATE TRIGGER po_counts BEFORE UPDATE ON po FOR EACH ROW EXECUTE FUNCTION po_counts()");
    }

    /** Settings of the applier every try runs against, beyond {@link ApplierFixture}'s. */
    protected String[] applierSettings() {
        return new String[0];
    }

    /** A streaming applier: a new one (new source, new ring) after a try that paused the last, so shrinking works. */
    protected ApplierFixture applier() {
        if (fixture != null && fixture.status().state().paused()) {
            fixture.close();
            fixture = null;
        }
        if (fixture == null) {
            fixture = ApplierFixture.start(replica, "reorder-property-" + ++fixtures, applierSettings());
            fixture.feeder().send(relation(1, "pa", 'd', "id*:23", "v:23"), relation(2, "pb", 'd', "id*:23", "w:25"),
                    relation(3, "pu", 'd', "id*:23", "u:23", "v:23"), relation(4, "pf", 'f', "v*:23", "w*:25"),
                    relation(5, "pt", 'd', "id*:23", "v:23"));
        }
        return fixture;
    }

    @AfterContainer
    static void stop() {
        try {
            if (fixture != null) {
                fixture.close();
            }
        } finally {
            fixture = null; // a subclass's container starts its own
            if (replica != null) {
                replica.close();
            }
        }
    }

    @Example
    void swapsUniqueValuesThroughATemporaryOneInOneTransaction() throws Exception {
        assertReplicaEqualsModel(List.of(new Step(8, 1, 1), new Step(8, 2, 2), new Step(Model.COMMIT, 0, 0),
                new Step(10, 0, 1)));
    }

    @Example
    void swapsUniqueValuesAcrossTransactionsInOneGroup() throws Exception {
        // row 1: u 1 -> 5; row 2: u 2 -> 1; row 1: u 5 -> 2, each its own transaction, all sent at once
        assertReplicaEqualsModel(List.of(new Step(8, 1, 1), new Step(8, 2, 2), new Step(Model.COMMIT, 0, 0),
                new Step(9, 0, 5), new Step(Model.COMMIT, 0, 0), new Step(9, 1, 1), new Step(Model.COMMIT, 0, 0),
                new Step(9, 0, 2)));
    }

    @Example
    void updatesManyRowsOfOneShapeAFewStatementsAtATime() throws Exception {
        List<Step> steps = new ArrayList<>();
        for (int id = 0; id < KEYS; id++) {
            steps.add(new Step(0, id, id));
        }
        steps.add(new Step(Model.COMMIT, 0, 0));
        for (int round = 0; round < 3; round++) {
            for (int id = 0; id < KEYS; id++) {
                steps.add(new Step(1, id, 100 * round + id)); // rows 0..11 each updated three times in one group
            }
        }
        assertReplicaEqualsModel(steps);
    }

    @Example
    void namesTheRowAManyRowUpdateDidNotFind() throws Exception {
        assertNamesTheRowNotFound(KEYS, 7); // one statement of 16 rows
    }

    @Example
    void namesTheRowNotFoundWhereAStatementRepeatsItToFillUp() throws Exception {
        assertNamesTheRowNotFound(5, 4); // one statement of 8 rows: the 5th four times
        assertNamesTheRowNotFound(70, 69); // two of 64: the 70th 58 times in the second
    }

    /** Updates rows 0..rows-1 of pa in one transaction, {@code missing} deleted on the replica first: apply pauses naming it. */
    private void assertNamesTheRowNotFound(int rows, int missing) throws Exception {
        ApplierFixture applier = applier();
        List<ChangeRecord> changes = new ArrayList<>();
        for (int id = 0; id < rows; id++) {
            changes.add(insert(1, i4(id), i4(0)));
        }
        applier.feeder().send(Records.transaction(++txId, lsn += 100,
                List.of(new ChangeRecord.Truncate(false, false, List.of(1)))));
        applier.feeder().send(Records.transaction(++txId, lsn += 100, changes));
        applier.awaitApplied(lsn);
        Sql.write(replica, "DELETE FROM pa WHERE id = " + missing);
        changes.clear();
        for (int id = 0; id < rows; id++) {
            changes.add(update(1, i4(id), i4(1)));
        }
        applier.feeder().send(Records.transaction(++txId, lsn += 100, changes));
        ApplierStatus paused = Await.until("apply paused on the row the update did not find", DEADLINE, applier::status,
                s -> s.state().paused());
        assertThat(paused.lastError()).contains("UPDATE of \"public\".\"pa\" found no row with key (\"id\")=(" + missing + ")");
        assertThat(Sql.rows(replica, "SELECT count(*) FROM pa WHERE v = 1")).containsExactly(List.of("0"));
        applier(); // the next one starts afresh
    }

    @Example
    void aTriggerThatFiresForTheApplierSeesOtherTablesAsThePrimaryHadThem() throws Exception {
        ApplierFixture applier = applier();
        applier.feeder().send(Records.transaction(++txId, lsn += 100,
                List.of(new ChangeRecord.Truncate(false, false, List.of(1, 5)), insert(1, i4(1), i4(0)))));
        // pa row 1 is 10 when pt row 1 is written, 20 afterwards: the second update would otherwise replace the first
        // in a batch that runs before pt's
        applier.feeder().send(Records.transaction(++txId, lsn += 100, List.of(update(1, i4(1), i4(10)), insert(5, i4(1), nul()))))
                .send(Records.transaction(++txId, lsn += 100, List.of(update(1, i4(1), i4(20)))));
        applier.awaitApplied(lsn);
        assertThat(Sql.rows(replica, "SELECT v FROM pt WHERE id = 1")).containsExactly(List.of("10"));
        assertThat(Sql.rows(replica, "SELECT v FROM pa WHERE id = 1")).containsExactly(List.of("20"));
    }

    @Example
    void withOrdinaryTriggersFiringEveryUpdateRunsItsOwnStatement() throws Exception {
        Sql.write(replica, "TRUNCATE po; INSERT INTO po (id, v) VALUES (1, 0)");
        try (ApplierFixture origin = ApplierFixture.start(replica, "reorder-origin-" + ++fixtures,
                "replica.session.replication.role", "origin")) {
            List<ChangeRecord> rows = new ArrayList<>();
            for (int k = 1; k <= 12; k++) {
                rows.add(update(6, i4(1), i4(k), i4(0)));
            }
            origin.feeder().send(relation(6, "po", 'd', "id*:23", "v:23", "n:23"))
                    .send(Records.transaction(1, 100, rows));
            origin.awaitApplied(100);
        }
        assertThat(Sql.rows(replica, "SELECT v, n FROM po WHERE id = 1")).containsExactly(List.of("12", "12"));
    }

    @Example
    void namesARowNotFoundInALaterChunkOfAManyRowUpdate() throws Exception {
        ApplierFixture applier = applier();
        List<ChangeRecord> rows = new ArrayList<>();
        for (int id = 100; id < 250; id++) {
            rows.add(insert(1, i4(id), i4(0)));
        }
        applier.feeder().send(Records.transaction(++txId, lsn += 100,
                List.of(new ChangeRecord.Truncate(false, false, List.of(1)))));
        applier.feeder().send(Records.transaction(++txId, lsn += 100, rows));
        applier.awaitApplied(lsn);
        Sql.write(replica, "DELETE FROM pa WHERE id = 240");
        rows.clear();
        for (int id = 100; id < 250; id++) {
            rows.add(update(1, i4(id), i4(1)));
        }
        applier.feeder().send(Records.transaction(++txId, lsn += 100, rows));
        ApplierStatus paused = Await.until("apply paused on the row the update did not find", DEADLINE, applier::status,
                s -> s.state().paused());
        assertThat(paused.lastError()).contains("UPDATE of \"public\".\"pa\" found no row with key (\"id\")=(240)");
        assertThat(Sql.rows(replica, "SELECT count(*) FROM pa WHERE v = 1")).containsExactly(List.of("0"));
    }

    @Property(tries = 100)
    void batchedApplyEqualsOneRowAtATime(@ForAll("workloads") List<Step> steps) throws Exception {
        assertReplicaEqualsModel(steps);
    }

    private void assertReplicaEqualsModel(List<Step> steps) throws Exception {
        ApplierFixture applier = applier();
        double retriedBefore = retriedSegments(applier);
        Model model = new Model();
        List<ChangeRecord> stream = new ArrayList<>(Records.transaction(++txId, lsn += 100,
                List.of(new ChangeRecord.Truncate(false, false, List.of(1, 2, 3, 4)))));
        List<ChangeRecord> rows = new ArrayList<>();
        for (Step step : steps) {
            if (step.kind() == Model.COMMIT) {
                stream.addAll(Records.transaction(++txId, lsn += 100, rows));
                rows.clear();
            } else {
                model.apply(step, rows);
            }
        }
        stream.addAll(Records.transaction(++txId, lsn += 100, rows));
        applier.feeder().send(stream);
        long last = lsn;
        ApplierStatus status = Await.until("applied LSN reaches " + Lsn.format(last) + " or the applier pauses", DEADLINE,
                applier::status, s -> Lsn.compare(s.appliedLsn(), last) >= 0 || s.state().paused());
        assertThat(status.state()).as("applier state (%s)", status.lastError()).isEqualTo(ApplierState.STREAMING);
        assertThat(Sql.rows(replica, "SELECT id, v FROM pa ORDER BY id")).isEqualTo(model.rows(model.pa));
        assertThat(Sql.rows(replica, "SELECT id, w FROM pb ORDER BY id")).isEqualTo(model.rows(model.pb));
        assertThat(Sql.rows(replica, "SELECT id, u, v FROM pu ORDER BY id")).isEqualTo(model.rows(model.pu));
        assertThat(Sql.rows(replica, "SELECT v, w FROM pf ORDER BY v")).isEqualTo(model.rows(model.pf));
        // parallel apply: a segment that started too early fails (a row not found) and is applied again alone, which
        // hides the mistake from the tables; it must not have happened
        assertThat(retriedSegments(applier) - retriedBefore).as("segments applied again after failing").isZero();
    }

    private static double retriedSegments(ApplierFixture applier) {
        return applier.registry().get("rdmarepl.applier.segments").tag("path", "retried").counter().count();
    }

    @Provide
    Arbitrary<List<Step>> workloads() {
        Arbitrary<Integer> kinds = Arbitraries.frequency(
                weight(6, 0), weight(4, 1), weight(2, 2), weight(2, 3),
                weight(6, 4), weight(4, 5), weight(2, 6), weight(2, 7),
                weight(5, 8), weight(3, 9), weight(3, 10), weight(2, 11),
                weight(3, 12), weight(2, 13), weight(2, 14),
                weight(1, Model.TRUNCATE), weight(6, Model.COMMIT));
        Arbitrary<Step> step = Combinators.combine(kinds, Arbitraries.integers().between(0, 999),
                Arbitraries.integers().between(0, 999)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(120);
    }

    private static net.jqwik.api.Tuple.Tuple2<Integer, Integer> weight(int weight, int kind) {
        return net.jqwik.api.Tuple.of(weight, kind);
    }

    /** The tables as one-row-at-a-time apply leaves them; turns each step into valid change records. */
    static final class Model {
        static final int TRUNCATE = 15;
        static final int COMMIT = 16;
        final Map<Integer, List<String>> pa = new TreeMap<>();
        final Map<Integer, List<String>> pb = new TreeMap<>();
        final Map<Integer, List<String>> pu = new TreeMap<>();
        final Map<Integer, List<String>> pf = new TreeMap<>();
        private int nextFullValue;

        void apply(Step s, List<ChangeRecord> out) {
            switch (s.kind()) {
                case 0, 4 -> insertKeyed(s, out);
                case 1, 5 -> updateKeyed(s, out);
                case 2, 6 -> moveKeyed(s, out);
                case 3, 7 -> deleteKeyed(s, out);
                case 8 -> insertUnique(s, out);
                case 9 -> changeUnique(s, out);
                case 10 -> swapUnique(s, out);
                case 11 -> delete(pu, 3, s.a(), out);
                case 12 -> insertFull(s, out);
                case 13 -> updateFull(s, out);
                case 14 -> deleteFull(s, out);
                case TRUNCATE -> truncate(s, out);
                default -> throw new IllegalArgumentException("step " + s);
            }
        }

        private void insertKeyed(Step s, List<ChangeRecord> out) {
            boolean isA = s.kind() == 0;
            int id = s.a() % KEYS;
            Map<Integer, List<String>> table = isA ? pa : pb;
            if (!table.containsKey(id)) {
                table.put(id, row(id, value(isA, s.b())));
                out.add(insert(isA ? 1 : 2, i4(id), isA ? i4(s.b()) : text("w" + s.b())));
            }
        }

        private void updateKeyed(Step s, List<ChangeRecord> out) {
            boolean isA = s.kind() == 1;
            Map<Integer, List<String>> table = isA ? pa : pb;
            Integer id = pick(table, s.a());
            if (id != null) {
                table.put(id, row(id, value(isA, s.b())));
                out.add(update(isA ? 1 : 2, i4(id), isA ? i4(s.b()) : text("w" + s.b())));
            }
        }

        private void moveKeyed(Step s, List<ChangeRecord> out) {
            boolean isA = s.kind() == 2;
            Map<Integer, List<String>> table = isA ? pa : pb;
            Integer from = pick(table, s.a());
            int to = s.b() % KEYS;
            if (from != null && !table.containsKey(to)) {
                List<String> old = table.remove(from);
                table.put(to, row(to, old.get(1)));
                out.add(updateKey(isA ? 1 : 2, Tuple.of(i4(from), nul()), i4(to),
                        isA ? i4(Integer.parseInt(old.get(1))) : text(old.get(1))));
            }
        }

        private void deleteKeyed(Step s, List<ChangeRecord> out) {
            boolean isA = s.kind() == 3;
            delete(isA ? pa : pb, isA ? 1 : 2, s.a(), out);
        }

        private void delete(Map<Integer, List<String>> table, int relation, int pick, List<ChangeRecord> out) {
            Integer id = pick(table, pick);
            if (id != null) {
                table.remove(id);
                out.add(relation == 3 ? deleteKey(3, i4(id), nul(), nul()) : deleteKey(relation, i4(id), nul()));
            }
        }

        private void insertUnique(Step s, List<ChangeRecord> out) {
            int id = s.a() % KEYS;
            int u = s.b() % KEYS;
            if (!pu.containsKey(id) && !uniqueTaken(u)) {
                pu.put(id, List.of(String.valueOf(id), String.valueOf(u), String.valueOf(s.b())));
                out.add(insert(3, i4(id), i4(u), i4(s.b())));
            }
        }

        private void changeUnique(Step s, List<ChangeRecord> out) {
            Integer id = pick(pu, s.a());
            int u = s.b() % KEYS;
            if (id != null && !uniqueTaken(u)) {
                setUnique(id, u, out);
            }
        }

        /** Row x takes row y's unique value and y takes x's, through a free value: three updates, in one transaction. */
        private void swapUnique(Step s, List<ChangeRecord> out) {
            Integer x = pick(pu, s.a());
            Integer y = pick(pu, s.b());
            if (x == null || x.equals(y)) {
                return;
            }
            int ux = Integer.parseInt(pu.get(x).get(1));
            int uy = Integer.parseInt(pu.get(y).get(1));
            int free = KEYS;
            while (uniqueTaken(free)) {
                free++;
            }
            setUnique(x, free, out);
            setUnique(y, ux, out);
            setUnique(x, uy, out);
        }

        private void setUnique(int id, int u, List<ChangeRecord> out) {
            String v = pu.get(id).get(2);
            pu.put(id, List.of(String.valueOf(id), String.valueOf(u), v));
            out.add(update(3, i4(id), i4(u), i4(Integer.parseInt(v))));
        }

        private boolean uniqueTaken(int u) {
            return pu.values().stream().anyMatch(r -> r.get(1).equals(String.valueOf(u)));
        }

        private void insertFull(Step s, List<ChangeRecord> out) {
            int v = nextFullValue++;
            pf.put(v, List.of(String.valueOf(v), "f" + s.b()));
            out.add(insert(4, i4(v), text("f" + s.b())));
        }

        private void updateFull(Step s, List<ChangeRecord> out) {
            Integer v = pick(pf, s.a());
            if (v != null) {
                String old = pf.get(v).get(1);
                pf.put(v, List.of(String.valueOf(v), "f" + s.b()));
                out.add(Records.updateFull(4, Tuple.of(i4(v), text(old)), i4(v), text("f" + s.b())));
            }
        }

        private void deleteFull(Step s, List<ChangeRecord> out) {
            Integer v = pick(pf, s.a());
            if (v != null) {
                out.add(Records.deleteFull(4, i4(v), text(pf.remove(v).get(1))));
            }
        }

        private void truncate(Step s, List<ChangeRecord> out) {
            int relation = 1 + s.a() % 4;
            List.of(pa, pb, pu, pf).get(relation - 1).clear();
            out.add(new ChangeRecord.Truncate(false, false, List.of(relation)));
        }

        private static Integer pick(Map<Integer, List<String>> table, int pick) {
            return table.isEmpty() ? null : new ArrayList<>(table.keySet()).get(pick % table.size());
        }

        private static String value(boolean isA, int b) {
            return isA ? String.valueOf(b) : "w" + b;
        }

        private static List<String> row(int id, String value) {
            return List.of(String.valueOf(id), value);
        }

        List<List<String>> rows(Map<Integer, List<String>> table) {
            return new ArrayList<>(table.values());
        }
    }
}
