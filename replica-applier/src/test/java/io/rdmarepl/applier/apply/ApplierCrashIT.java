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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kill -9 of an applier running in its own JVM in the middle of a stream, then a new applier (a new ring,
 * as a restarted standby makes) fed everything again from the first transaction: every row exactly once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApplierCrashIT {
    private static final int TRANSACTIONS = 1500;
    private static final int ROWS_PER_TX = 4;
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

    @Test
    void shouldNeitherLoseNorDuplicateARowWhenKilledMidStreamAndRestarted() throws Exception {
        Sql.write(replica, "CREATE TABLE crash_rows (tx int, n int); ALTER TABLE crash_rows REPLICA IDENTITY FULL;"
                + " CREATE TABLE crash_totals (id int PRIMARY KEY, total int)");
        long lastLsn = lsn(TRANSACTIONS);

        Process first = startApplier("first");
        AtomicInteger fed = new AtomicInteger();
        Thread shipper = new Thread(() -> feed(first, "first", fed), "test-shipper");
        try {
            shipper.start();
            long atKill = Await.until("the first applier applied some transactions", Duration.ofSeconds(60),
                    ApplierCrashIT::appliedLsn, lsn -> lsn >= lsn(100));
            first.destroyForcibly();
            assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(atKill).as("killed mid-stream, before the last transaction").isLessThan(lastLsn);
        } finally {
            first.destroyForcibly();
            shipper.join(40_000);
        }
        long stored = appliedLsn();
        assertThat(Sql.count(replica, "SELECT count(*) FROM crash_rows")).as("rows of the applied transactions only")
                .isEqualTo(txOf(stored) * (long) ROWS_PER_TX);

        Process second = startApplier("second");
        try {
            feed(second, "second", new AtomicInteger());
            Await.equalTo("the second applier applied the last transaction", Duration.ofSeconds(60),
                    ApplierCrashIT::appliedLsn, lastLsn);
        } finally {
            second.destroyForcibly();
            second.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Sql.count(replica, "SELECT count(*) FROM crash_rows")).isEqualTo((long) TRANSACTIONS * ROWS_PER_TX);
        assertThat(Sql.count(replica, "SELECT count(*) FROM (SELECT DISTINCT tx, n FROM crash_rows) d"))
                .isEqualTo((long) TRANSACTIONS * ROWS_PER_TX);
        assertThat(Sql.rows(replica, "SELECT total FROM crash_totals")).containsExactly(List.of(String.valueOf(TRANSACTIONS)));
    }

    /** Plays the shipper: relations, then every transaction from the first, as fast as the ring takes them. */
    private static void feed(Process applier, String name, AtomicInteger fed) {
        ChannelUri uri = ChannelUri.parse(ringUri(name));
        RingFeeder feeder = Await.until("the " + name + " applier created its ring", Duration.ofSeconds(30),
                () -> new RingFeeder(uri), f -> true).readerAlive(applier::isAlive);
        try (feeder) {
            feeder.send(relation(1, "crash_rows", 'f', "tx*", "n*"), relation(2, "crash_totals", 'd', "id*", "total"));
            for (int tx = 1; tx <= TRANSACTIONS && applier.isAlive(); tx++) {
                List<ChangeRecord> rows = new ArrayList<>();
                for (int n = 0; n < ROWS_PER_TX; n++) {
                    rows.add(insert(1, i4(tx), i4(n)));
                }
                rows.add(tx == 1 ? insert(2, i4(1), i4(tx)) : Records.update(2, i4(1), i4(tx)));
                feeder.send(Records.transaction(tx, lsn(tx), rows));
                fed.set(tx);
            }
        } catch (RuntimeException e) {
            if (applier.isAlive()) {
                throw e;
            }
        }
    }

    private static Process startApplier(String name) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "crash-it"));
        Path config = dir.resolve(name + ".properties");
        Files.writeString(config, String.join("\n",
                "source.name=crash",
                "ring.uri=" + ringUri(name),
                "ring.capacity.bytes=262144",
                "replica.jdbc.url=" + replica.jdbcUrl("postgres"),
                "apply.group.max.transactions=50",
                "admin.port=0"));
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), ApplierMain.class.getName(), config.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
    }

    private static final String RUN = Long.toHexString(System.nanoTime());

    private static String ringUri(String name) {
        return Rings.newUri("crash-" + name).replaceAll("-[0-9a-f-]{36}$", "-" + RUN);
    }

    private static long appliedLsn() throws Exception {
        List<List<String>> rows = Sql.rows(replica, "SELECT commit_lsn::text FROM rdmarepl.applied_position WHERE source = 'crash'");
        return rows.isEmpty() ? 0 : Lsn.parse(rows.get(0).get(0));
    }

    private static long lsn(int tx) {
        return 0x1000L + tx * 0x100L;
    }

    private static long txOf(long lsn) {
        return lsn == 0 ? 0 : (lsn - 0x1000L) / 0x100L;
    }
}
