package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.RingFeeder;
import io.rdmarepl.applier.testing.Rings;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One source transaction far larger than the applier's memory: an applier in its own JVM with 96 MB of heap and
 * 48 MB of direct memory applies a 240 MB transaction whole, exactly once, and reports it applied. The ring's
 * back-pressure holds the shipper; the applier keeps the transaction's bytes, which it must be able to replay
 * until its commit, in a file beside the replica's connection rather than in memory.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LargeTransactionIT {
    private static final int ROWS = 240_000;
    private static final String PAYLOAD = "x".repeat(1000);

    @Test
    void appliesATransactionLargerThanTheApplierMemoryExactlyOnce() throws Exception {
        try (PostgresServer replica = PostgresServer.replica(Durability.FAST)) {
            Sql.write(replica, "CREATE TABLE big_rows (id int PRIMARY KEY, payload text)");
            String ring = Rings.newUri("large-tx");
            Process applier = startApplier(replica, ring);
            try {
                RingFeeder feeder = Await.until("the applier created its ring", Duration.ofSeconds(30),
                        () -> new RingFeeder(ChannelUri.parse(ring)), f -> true).readerAlive(applier::isAlive);
                long commitLsn = 0x10_0000L;
                try (feeder) {
                    feeder.send(relation(1, "big_rows", 'd', "id*", "payload"));
                    long timeUs = System.currentTimeMillis() * 1000;
                    feeder.send(new ChangeRecord.Begin(7, commitLsn, timeUs));
                    List<ChangeRecord> rows = new ArrayList<>();
                    for (int id = 1; id <= ROWS; id++) {
                        rows.add(insert(1, i4(id), text(PAYLOAD)));
                        if (rows.size() == 1000) {
                            feeder.send(rows);
                            rows.clear();
                        }
                    }
                    feeder.send(rows);
                    feeder.send(new ChangeRecord.Commit(7, commitLsn, commitLsn + 8, timeUs));
                }
                Await.equalTo("the transaction applied", Duration.ofSeconds(180), () -> appliedLsn(replica), commitLsn);
                assertThat(applier.isAlive()).isTrue();
            } finally {
                applier.destroyForcibly();
                applier.waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(Sql.count(replica, "SELECT count(*) FROM big_rows")).isEqualTo((long) ROWS);
            assertThat(Sql.count(replica, "SELECT count(*) FROM big_rows WHERE length(payload) = 1000")).isEqualTo((long) ROWS);
        }
    }

    private static Process startApplier(PostgresServer replica, String ring) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "large-tx-it"));
        Path config = dir.resolve("applier.properties");
        Files.writeString(config, String.join("\n",
                "source.name=large",
                "ring.uri=" + ring,
                "ring.capacity.bytes=4194304",
                "replica.jdbc.url=" + replica.jdbcUrl("postgres"),
                "admin.port=0"));
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:MaxDirectMemorySize=48m", "-cp", System.getProperty("java.class.path"),
                ApplierMain.class.getName(), config.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("applier.log").toFile()).start();
    }

    private static long appliedLsn(PostgresServer replica) throws Exception {
        List<List<String>> rows = Sql.rows(replica, "SELECT commit_lsn::text FROM rdmarepl.applied_position WHERE source = 'large'");
        return rows.isEmpty() ? 0 : io.rdmarepl.format.Lsn.parse(rows.get(0).get(0));
    }
}
