package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.applier.testing.Records;
import io.rdmarepl.applier.testing.RingFeeder;
import io.rdmarepl.applier.testing.Rings;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kill -9 of an applier running in its own JVM in the middle of a stream, then a new applier (a new ring,
 * as a restarted standby makes) fed everything again from the first transaction: every row exactly once. With one
 * apply worker, and with three (segments of five transactions, so several are in flight when the kill comes; each
 * transaction also raises one of 64 totals, so segments in flight meet and wait).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApplierCrashIT {
    private static final int TRANSACTIONS = 1500;
    private static final int ROWS_PER_TX = 4;
    private static final int TOTALS = 64;
    private static PostgresServer replica;

    @BeforeAll
    static void startReplica() {
        replica = PostgresServer.replica(Durability.DURABLE);
    }

    @AfterAll
    static void stopReplica() {
        if (replica != null) {
            replica.close();
        }
    }

    @ParameterizedTest(name = "apply.workers={0}")
    @ValueSource(ints = {1, 3})
    void shouldNeitherLoseNorDuplicateARowWhenKilledMidStreamAndRestarted(int workers) throws Exception {
        String rowsTable = "crash_rows_w" + workers;
        String totalsTable = "crash_totals_w" + workers;
        String source = "crash-w" + workers;
        Sql.write(replica, "CREATE TABLE " + rowsTable + " (tx int, n int); ALTER TABLE " + rowsTable
                + " REPLICA IDENTITY FULL; CREATE TABLE " + totalsTable + " (id int PRIMARY KEY, total int)");
        long lastLsn = lsn(TRANSACTIONS);
        Crash crash = new Crash(workers, source, rowsTable, totalsTable);

        Process first = startApplier(crash, "first");
        AtomicInteger fed = new AtomicInteger();
        Thread shipper = new Thread(() -> feed(crash, first, "first", fed), "test-shipper");
        try {
            shipper.start();
            long atKill = Await.until("the first applier applied some transactions", Duration.ofSeconds(60),
                    () -> appliedLsn(source), lsn -> lsn >= lsn(100));
            first.destroyForcibly();
            assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(atKill).as("killed mid-stream, before the last transaction").isLessThan(lastLsn);
        } finally {
            first.destroyForcibly();
            shipper.join(40_000);
        }
        long stored = appliedLsn(source);
        assertThat(Sql.count(replica, "SELECT count(*) FROM " + rowsTable)).as("rows of the applied transactions only")
                .isEqualTo(txOf(stored) * (long) ROWS_PER_TX);
        assertThat(Sql.count(replica, "SELECT coalesce(max(total), 0) FROM " + totalsTable))
                .as("the totals of the applied transactions only").isEqualTo(txOf(stored));

        Process second = startApplier(crash, "second");
        try {
            feed(crash, second, "second", new AtomicInteger());
            Await.equalTo("the second applier applied the last transaction", Duration.ofSeconds(60),
                    () -> appliedLsn(source), lastLsn);
        } finally {
            second.destroyForcibly();
            second.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Sql.count(replica, "SELECT count(*) FROM " + rowsTable)).isEqualTo((long) TRANSACTIONS * ROWS_PER_TX);
        assertThat(Sql.count(replica, "SELECT count(*) FROM (SELECT DISTINCT tx, n FROM " + rowsTable + ") d"))
                .isEqualTo((long) TRANSACTIONS * ROWS_PER_TX);
        // each total holds the last transaction that raised it: TRANSACTIONS - TOTALS + 1 .. TRANSACTIONS
        assertThat(Sql.rows(replica, "SELECT count(*), min(total), max(total) FROM " + totalsTable)).containsExactly(List.of(
                String.valueOf(TOTALS), String.valueOf(TRANSACTIONS - TOTALS + 1), String.valueOf(TRANSACTIONS)));
    }

    /** One run's applier settings and tables. */
    private record Crash(int workers, String source, String rowsTable, String totalsTable) {
    }

    /**
     * Plays the shipper: relations, then every transaction from the first, as fast as the ring takes them. Transaction
     * {@code tx} inserts its rows and sets total {@code tx % 64} to {@code tx}.
     */
    private static void feed(Crash crash, Process applier, String name, AtomicInteger fed) {
        ChannelUri uri = ChannelUri.parse(ringUri(crash, name));
        RingFeeder feeder = Await.until("the " + name + " applier created its ring", Duration.ofSeconds(30),
                () -> new RingFeeder(uri), f -> true).readerAlive(applier::isAlive);
        try (feeder) {
            feeder.send(relation(1, crash.rowsTable(), 'f', "tx*", "n*"), relation(2, crash.totalsTable(), 'd', "id*", "total"));
            for (int tx = 1; tx <= TRANSACTIONS && applier.isAlive(); tx++) {
                List<ChangeRecord> rows = new ArrayList<>();
                for (int n = 0; n < ROWS_PER_TX; n++) {
                    rows.add(insert(1, i4(tx), i4(n)));
                }
                rows.add(tx <= TOTALS ? insert(2, i4(tx % TOTALS), i4(tx)) : Records.update(2, i4(tx % TOTALS), i4(tx)));
                feeder.send(Records.transaction(tx, lsn(tx), rows));
                fed.set(tx);
            }
        } catch (RuntimeException e) {
            if (applier.isAlive()) {
                throw e;
            }
        }
    }

    private static Process startApplier(Crash crash, String name) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "crash-it"));
        Path config = dir.resolve(crash.source() + "-" + name + ".properties");
        Files.writeString(config, String.join("\n",
                "source.name=" + crash.source(),
                "ring.uri=" + ringUri(crash, name),
                "ring.capacity.bytes=262144",
                "replica.jdbc.url=" + replica.jdbcUrl("postgres"),
                "apply.workers=" + crash.workers(),
                "apply.group.max.transactions=" + (crash.workers() == 1 ? 50 : 5),
                "admin.port=0"));
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), ApplierMain.class.getName(), config.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve(crash.source() + "-" + name + ".log").toFile()).start();
    }

    private static final String RUN = Long.toHexString(System.nanoTime());

    private static String ringUri(Crash crash, String name) {
        return Rings.newUri(crash.source() + "-" + name).replaceAll("-[0-9a-f-]{36}$", "-" + RUN);
    }

    private static long appliedLsn(String source) throws Exception {
        List<List<String>> rows = Sql.rows(replica, "SELECT commit_lsn::text FROM rdmarepl.applied_position WHERE source = '"
                + source + "'");
        return rows.isEmpty() ? 0 : Lsn.parse(rows.get(0).get(0));
    }

    private static long lsn(int tx) {
        return 0x1000L + tx * 0x100L;
    }

    private static long txOf(long lsn) {
        return lsn == 0 ? 0 : (lsn - 0x1000L) / 0x100L;
    }
}
