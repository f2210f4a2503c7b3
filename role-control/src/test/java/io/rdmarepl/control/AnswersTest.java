package io.rdmarepl.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The answers keep the field names the coordinator has always read, and readers skip fields added later. */
class AnswersTest {
    private static final ObjectMapper PLAIN = new ObjectMapper();

    @Test
    void shouldNameTheDrainAnswersFieldAppliedLsn() throws Exception {
        assertThat(ControlJson.write(new DrainAnswer("0/16B3748"))).isEqualTo("{\"applied_lsn\":\"0/16B3748\"}");
        assertThat(ControlJson.read(PLAIN.readTree("{\"applied_lsn\":\"0/5\",\"added_later\":1}"), DrainAnswer.class))
                .isEqualTo(new DrainAnswer("0/5"));
    }

    @Test
    void shouldWriteThePromoteAnswersFields() throws Exception {
        assertThat(PLAIN.readTree(ControlJson.write(PromoteAnswer.promoted("0/9", Map.of("public.orders_id_seq", 1042L)))))
                .isEqualTo(PLAIN.readTree("{\"state\":\"promoted\",\"applied_lsn\":\"0/9\",\"sequences\":{\"public.orders_id_seq\":1042}}"));
    }

    @Test
    void shouldReadTheShippersRetireAnswerAmongItsOtherFields() throws Exception {
        RetireAnswer answer = ControlJson.read(PLAIN.readTree("{\"state\":\"retired\",\"slot\":\"s\",\"slot_dropped\":true}"),
                RetireAnswer.class);
        assertThat(answer.slotDropped()).isTrue();
        assertThat(answer.synchronousStandbyNamesCleared()).isFalse();
        assertThat(ControlJson.read(PLAIN.readTree("{\"state\":\"retired\"}"), RetireAnswer.class).slotDropped()).isFalse();
        assertThat(ControlJson.read(PLAIN.readTree("{\"state\":\"retired\",\"synchronous_standby_names_cleared\":true}"),
                RetireAnswer.class).synchronousStandbyNamesCleared()).isTrue();
    }

    @Test
    void shouldWriteTheFollowAndDeactivateAnswers() throws Exception {
        assertThat(ControlJson.write(FollowAnswer.following())).isEqualTo("{\"result\":\"following\"}");
        assertThat(ControlJson.write(new DeactivateAnswer("waiting", true))).isEqualTo("{\"state\":\"waiting\",\"stopped\":true}");
    }

    @Test
    void shouldBuildTheLongPollRoute() {
        assertThat(ShipperRoutes.primary(2000)).isEqualTo("/primary?wait_ms=2000");
    }
}
