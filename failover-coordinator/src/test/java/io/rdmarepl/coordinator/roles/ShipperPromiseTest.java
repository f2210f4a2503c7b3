package io.rdmarepl.coordinator.roles;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.control.ControlJson;
import io.rdmarepl.control.LeaseAnswer;
import org.junit.jupiter.api.Test;

class ShipperPromiseTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void syncModeRefusesAStandbyBehindTheAcknowledgedPosition() throws Exception {
        ShipperPromise promise = ShipperPromise.of(answer(
                "{\"replication_mode\":\"sync\",\"sync_state\":\"sync\",\"acknowledged_lsn\":\"0/3000100\",\"lease_ms\":0}"));

        assertThat(promise.synchronous()).isTrue();
        assertThat(promise.shortfall("pgb", "0/3000100")).isNull();
        assertThat(promise.shortfall("pgb", "0/3000200")).isNull();
        assertThat(promise.shortfall("pgb", "0/30000FF")).isEqualTo("pgb applied only up to 0/30000FF but the shipper had "
                + "acknowledged commits up to 0/3000100 (sync mode): promoting it would lose acknowledged transactions");
        assertThat(promise.sentence("pgb", "0/3000100", "0/3000400")).startsWith("sync mode: every transaction acknowledged to a client is on pgb");
    }

    @Test
    void asyncOrDegradedPromisesNothingBeyondWhatWasApplied() throws Exception {
        ShipperPromise degraded = ShipperPromise.of(answer(
                "{\"replication_mode\":\"sync\",\"sync_state\":\"degraded\",\"acknowledged_lsn\":\"0/3000100\"}"));
        ShipperPromise async = ShipperPromise.of(answer("{\"replication_mode\":\"async\",\"acknowledged_lsn\":\"0/3000100\"}"));
        ShipperPromise unknown = ShipperPromise.of(null);
        ShipperPromise retired = ShipperPromise.of(answer("{\"lease_ms\":2000,\"copy_progress\":null}"));

        assertThat(degraded.shortfall("pgb", "0/1")).isNull();
        assertThat(async.shortfall("pgb", "0/1")).isNull();
        assertThat(degraded.sentence("pgb", "0/1", null)).startsWith("sync mode was degraded (async) when the shipper was last heard");
        assertThat(async.sentence("pgb", "0/1", "0/2")).isEqualTo("async mode: pgb applied up to 0/1; the old primary's WAL was at "
                + "0/2 when last seen; what it committed beyond the applied position is lost");
        assertThat(unknown.mode()).isEqualTo("unknown");
        assertThat(retired.mode()).as("a shipper that ships nothing promises nothing").isEqualTo("unknown");
    }

    /** As the coordinator reads a shipper's answer to a lease renewal. */
    private static LeaseAnswer answer(String json) throws Exception {
        return ControlJson.read(JSON.readTree(json), LeaseAnswer.class);
    }
}
