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
    void shouldWriteAndReadTheShippersActivateResumeAndFenceAnswers() throws Exception {
        String activated = "{\"state\":\"shipping\",\"slot\":\"rdmarepl\",\"snapshot\":\"initial\",\"slot_dropped\":true}";
        ShipperActivateAnswer answer = new ShipperActivateAnswer("shipping", "rdmarepl", "initial", true);
        assertThat(PLAIN.readTree(ControlJson.write(answer))).isEqualTo(PLAIN.readTree(activated));
        assertThat(ControlJson.read(PLAIN.readTree(activated), ShipperActivateAnswer.class)).isEqualTo(answer);

        assertThat(ControlJson.write(new ResumeAnswer("shipping", true))).isEqualTo("{\"state\":\"shipping\",\"resumed\":true}");
        assertThat(ControlJson.read(PLAIN.readTree("{\"state\":\"shipping\",\"resumed\":false}"), ResumeAnswer.class))
                .isEqualTo(new ResumeAnswer("shipping", false));
        assertThat(ControlJson.write(new FenceAnswer("fenced"))).isEqualTo("{\"state\":\"fenced\"}");
        assertThat(ControlJson.read(PLAIN.readTree("{\"state\":\"retired\"}"), FenceAnswer.class)).isEqualTo(new FenceAnswer("retired"));
    }

    @Test
    void shouldWriteAndReadTheAppliersActivateAnswer() throws Exception {
        String activated = "{\"state\":\"streaming\",\"ring\":\"shm:///dev/shm/a\",\"epoch\":3}";
        ApplierActivateAnswer answer = new ApplierActivateAnswer("streaming", "shm:///dev/shm/a", 3);
        assertThat(PLAIN.readTree(ControlJson.write(answer))).isEqualTo(PLAIN.readTree(activated));
        assertThat(ControlJson.read(PLAIN.readTree(activated), ApplierActivateAnswer.class)).isEqualTo(answer);
    }

    @Test
    void shouldWriteTheRetireAnswersFields() throws Exception {
        RetireAnswer answer = new RetireAnswer("retired", true, false);
        assertThat(PLAIN.readTree(ControlJson.write(answer))).isEqualTo(PLAIN.readTree(
                "{\"state\":\"retired\",\"slot_dropped\":true,\"synchronous_standby_names_cleared\":false}"));
        assertThat(ControlJson.read(PLAIN.readTree(ControlJson.write(answer)), RetireAnswer.class)).isEqualTo(answer);
    }

    @Test
    void shouldBuildTheLongPollRoute() {
        assertThat(ShipperRoutes.primary(2000)).isEqualTo("/primary?wait_ms=2000");
    }
}
