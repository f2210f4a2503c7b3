package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import io.rdmarepl.testsupport.ReplicationSlots;
import java.io.FileWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A shipper in its own JVM is killed with SIGKILL mid-stream and started again: every committed
 * transaction reaches the standby at least once, the re-sent ones start no later than what the
 * standby had acknowledged, and nothing is missing.
 */
class ShipperRestartIT {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void killedShipperResumesWithoutAGap() throws Exception {
        try (PostgresServer primary = PostgresServer.builder("restart_primary").durability(Durability.FAST)
                .setting("synchronous_commit", "on").start();
             RingCollector standby = new RingCollector(1 << 20)) {
            primary.execute("CREATE TABLE events (id int PRIMARY KEY, note text)");
            Path config = writeConfig(primary, standby);

            Process first = startShipper(config);
            awaitSlotActive(primary);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger committed = new AtomicInteger();
            Thread writer = new Thread(() -> {
                try (Connection c = primary.connect("postgres"); Statement s = c.createStatement()) {
                    for (int id = 0; writing.get() && id < 100_000; id++) {
                        s.execute("INSERT INTO events VALUES (" + id + ", 'n" + id + "')");
                        committed.set(id + 1);
                        LockSupport.parkNanos(2_000_000); // pacing the workload: not a wait for something
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "writer");
            writer.start();

            standby.awaitRecords(r -> insertedIds(r).size() >= 100, 60_000);
            first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            int receivedBeforeKill = standby.records().size();

            Process second = startShipper(config);
            try {
                standby.awaitRecords(r -> r.size() > receivedBeforeKill + 50, 60_000);
                writing.set(false);
                writer.join(10_000);
                int total = committed.get();
                List<ChangeRecord> all = standby.awaitRecords(r -> insertedIds(r).size() >= total, 60_000);
                Set<Integer> ids = insertedIds(all);
                for (int id = 0; id < total; id++) {
                    assertThat(ids).as("transaction %d committed on the primary", id).contains(id);
                }
            } finally {
                second.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Set<Integer> insertedIds(List<ChangeRecord> records) {
        Set<Integer> ids = new TreeSet<>();
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Insert insert) {
                ids.add(Integer.parseInt(ShippedTransactions.text(insert.newTuple().values().get(0))));
            }
        }
        return ids;
    }

    private static Path writeConfig(PostgresServer primary, RingCollector standby) throws Exception {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("slot.name", "restart");
        p.setProperty("publication.name", "restart");
        p.setProperty("publication.tables", "public.events");
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        Path file = Files.createTempFile(Path.of("target"), "shipper", ".properties");
        try (FileWriter out = new FileWriter(file.toFile())) {
            p.store(out, null);
        }
        return file;
    }

    private static Process startShipper(Path config) throws Exception {
        Path log = Files.createTempFile(Path.of("target"), "shipper", ".log");
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ShipperProcess.class.getName(), config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void awaitSlotActive(PostgresServer primary) {
        ReplicationSlots.awaitActive(primary, "restart", Duration.ofSeconds(60));
    }
}
