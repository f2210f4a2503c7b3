package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A shipper cut off from its standby (and from any coordinator) for longer than fence.lease.ms fences itself:
 * shipping stops and the primary refuses writes. While the standby answers, nothing happens.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShipperLeaseIT {
    private static PostgresServer primary;

    @BeforeAll
    static void startPrimary() {
        primary = PostgresServer.builder("lease_primary").durability(Durability.FAST).start();
        primary.execute("CREATE TABLE t (id int PRIMARY KEY)");
    }

    @AfterAll
    static void stopPrimary() {
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void aShipperThatHearsFromNobodyFencesItselfAndThePrimary() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20); Shipper shipper = start(standby)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1000)); // several leases long, with the standby answering
            assertThat(shipper.status()).containsEntry("state", "streaming");
            assertThat(primary.show("default_transaction_read_only")).isEqualTo("off");

            standby.slowDown(TimeUnit.SECONDS.toNanos(30)); // the standby stops reading: no feedback any more
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!"fenced".equals(shipper.status().get("state")) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertThat(shipper.status()).containsEntry("state", "fenced");
            assertThat((String) shipper.status().get("fenced_reason")).startsWith("self-fenced: no word from a standby or the coordinator");
            assertThat(primary.show("default_transaction_read_only")).isEqualTo("on");
            assertThat(shipper.healthy()).isFalse();
        } finally {
            primary.execute("ALTER SYSTEM RESET default_transaction_read_only");
            primary.execute("SELECT pg_reload_conf()");
        }
    }

    private static Shipper start(RingCollector standby) {
        Properties p = new Properties();
        p.setProperty("database.host", PostgresServer.HOST);
        p.setProperty("database.port", Integer.toString(primary.port()));
        p.setProperty("database.user", PostgresServer.SUPERUSER);
        p.setProperty("slot.name", "lease");
        p.setProperty("publication.name", "lease");
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", standby.uri());
        p.setProperty("admin.address", "127.0.0.1:0");
        p.setProperty("fence.lease.ms", "300");
        return Shipper.start(ShipperConfig.load(p), new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry());
    }
}
