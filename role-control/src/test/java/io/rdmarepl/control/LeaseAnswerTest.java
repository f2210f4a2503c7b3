package io.rdmarepl.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lease answer stays one flat object with the field names the coordinator and docs/configuration/shipper.md use. */
class LeaseAnswerTest {
    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final String SYNC_SHIPPER = "{\"replication_mode\":\"sync\",\"sync_state\":\"degraded\","
            + "\"sync_policy\":\"degrade after 500 ms\",\"acknowledged_lsn\":\"0/3000100\",\"lease_ms\":2000,"
            + "\"lease_check_ms\":100,\"self_fence_timeout_ms\":2000,\"copy_progress\":{\"rows\":12,\"eta_s\":3}}";

    @Test
    void shouldWriteEveryFieldFlat() throws Exception {
        Map<String, Object> copy = new LinkedHashMap<>();
        copy.put("rows", 12);
        copy.put("eta_s", 3);
        LeaseAnswer answer = new LeaseAnswer(new Guarantee("sync", "degraded", "degrade after 500 ms", "0/3000100"),
                new LeaseTerms(2000L, 100L, 2000L), copy);

        assertThat(tree(ControlJson.write(answer))).isEqualTo(tree(SYNC_SHIPPER));
    }

    @Test
    void shouldReadWhatAShipperWrites() throws Exception {
        LeaseAnswer answer = ControlJson.read(tree(SYNC_SHIPPER), LeaseAnswer.class);

        assertThat(answer.guarantee()).isEqualTo(new Guarantee("sync", "degraded", "degrade after 500 ms", "0/3000100"));
        assertThat(answer.terms()).isEqualTo(new LeaseTerms(2000L, 100L, 2000L));
        assertThat(answer.copyProgress()).containsEntry("rows", 12).containsEntry("eta_s", 3);
        assertThat(ControlJson.read(tree(ControlJson.write(answer)), LeaseAnswer.class)).isEqualTo(answer);
    }

    @Test
    void shouldLeaveTheGuaranteeOutWhenNoShipperRuns() throws Exception {
        LeaseAnswer retired = new LeaseAnswer(null, new LeaseTerms(2000L, 100L, 2000L), null);

        assertThat(tree(ControlJson.write(retired))).isEqualTo(
                tree("{\"lease_ms\":2000,\"lease_check_ms\":100,\"self_fence_timeout_ms\":2000,\"copy_progress\":null}"));
        assertThat(ControlJson.read(tree(ControlJson.write(retired)), LeaseAnswer.class).guarantee().replicationMode())
                .as("read back, the guarantee's fields are null").isNull();
    }

    @Test
    void shouldReadAnAnswerWithoutTermsAsNotSayingThem() throws Exception {
        LeaseAnswer answer = ControlJson.read(tree("{\"replication_mode\":\"async\",\"acknowledged_lsn\":\"0/5\",\"added_later\":1}"),
                LeaseAnswer.class);

        assertThat(answer.guarantee()).isEqualTo(new Guarantee("async", null, null, "0/5"));
        assertThat(answer.terms()).isEqualTo(new LeaseTerms(null, null, null));
        assertThat(answer.copyProgress()).isNull();
    }

    private static JsonNode tree(String json) throws Exception {
        return PLAIN.readTree(json);
    }
}
