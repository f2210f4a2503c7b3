package io.rdmarepl.shipper.role;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.shipper.config.ShipperConfig;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PrimarySlotDropperTest {

    @Test
    void shouldNameTheDatabaseItCannotReach() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        p.setProperty("database.host", "127.0.0.1");
        p.setProperty("database.port", "1");
        p.setProperty("slot.name", "gone");
        SlotDropper dropper = new PrimarySlotDropper(ShipperConfig.load(p), Duration.ofSeconds(1));
        assertThatThrownBy(dropper::dropIfExists).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("replication slot gone")
                .hasMessageContaining("postgres@127.0.0.1:1/postgres");
    }
}
