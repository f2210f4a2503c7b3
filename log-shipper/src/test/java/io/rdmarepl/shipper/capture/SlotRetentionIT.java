package io.rdmarepl.shipper.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.shipper.ShipperTestProperties;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code rdmarepl_shipper_slot_retained_wal_bytes}: the WAL a real primary keeps for the slot, NaN while there is no
 * slot, and NaN at once (not after the JDBC defaults) once the primary is gone.
 */
class SlotRetentionIT {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReadTheWalKeptForTheSlotAndNaNWithoutSlotOrPrimary() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Gauge gauge;
        try (PostgresServer primary = PostgresServer.primary(Durability.FAST)) {
            ShipperConfig config = config(primary);
            SlotRetention.register(registry, config);
            gauge = registry.get(SlotRetention.METRIC).tag("slot", "rdmarepl_retention").gauge();
            assertThat(gauge.value()).as("no slot yet").isNaN();
            assertThat(SlotRetention.retainedWalBytes(config)).isNull();

            primary.execute("SELECT pg_create_logical_replication_slot('rdmarepl_retention', 'pgoutput')");
            primary.execute("CREATE TABLE retained (x int); INSERT INTO retained SELECT generate_series(1, 100000)");
            assertThat(gauge.value()).as("100,000 rows of WAL written after the slot").isGreaterThan(1_000_000);
            assertThat(SlotRetention.retainedWalBytes(config)).as("/status reads the same").isGreaterThan(1_000_000L);

            primary.execute("SELECT pg_drop_replication_slot('rdmarepl_retention')");
            assertThat(gauge.value()).as("slot dropped").isNaN();
        }
        long startNs = System.nanoTime();
        assertThat(gauge.value()).as("primary stopped").isNaN();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs)).as("a scrape is not held").isLessThan(5_000);
    }

    private static ShipperConfig config(PostgresServer primary) {
        Properties p = ShipperTestProperties.of(primary, "shm:///dev/shm/rdmarepl-retention-it");
        p.setProperty("slot.name", "rdmarepl_retention");
        return ShipperConfig.load(p);
    }
}
