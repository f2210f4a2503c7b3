package io.rdmarepl.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code GET /primary}'s answer keeps the field names the coordinator's long poll and docs/configuration/shipper.md use. */
class PrimaryAnswerTest {
    private static final ObjectMapper PLAIN = new ObjectMapper();
    private static final String EXITED = "{\"shipping\":true,\"alive\":false,\"postmaster_exited\":true,\"postmaster\":"
            + "{\"pid\":4711,\"exited\":true,\"watch\":\"exited: process 4711 exited (state Z)\",\"exit\":\"process 4711 exited (state Z)\"}}";

    @Test
    void shouldWriteARunningShippersViewOfThePrimary() throws Exception {
        PrimaryAnswer answer = PrimaryAnswer.shipping(false, true,
                new PostmasterStatus(4711L, true, "exited: process 4711 exited (state Z)", "process 4711 exited (state Z)"));

        assertThat(tree(ControlJson.write(answer))).isEqualTo(tree(EXITED));
        assertThat(ControlJson.read(tree(EXITED), PrimaryAnswer.class)).isEqualTo(answer);
    }

    @Test
    void shouldWriteTheNullsOfAPostmasterNotWatched() throws Exception {
        PrimaryAnswer answer = PrimaryAnswer.shipping(true, false, new PostmasterStatus(null, false, "none: not on this host", null));

        assertThat(tree(ControlJson.write(answer))).isEqualTo(tree("{\"shipping\":true,\"alive\":true,\"postmaster_exited\":false,"
                + "\"postmaster\":{\"pid\":null,\"exited\":false,\"watch\":\"none: not on this host\",\"exit\":null}}"));
        assertThat(ControlJson.read(tree(ControlJson.write(answer)), PrimaryAnswer.class).watching()).isFalse();
    }

    @Test
    void shouldSayOnlyThatNothingShipsWithoutAShipper() throws Exception {
        assertThat(ControlJson.write(PrimaryAnswer.notShipping())).isEqualTo("{\"shipping\":false}");
        PrimaryAnswer read = ControlJson.read(tree("{\"shipping\":false}"), PrimaryAnswer.class);
        assertThat(read).isEqualTo(PrimaryAnswer.notShipping());
        assertThat(read.reportsExit()).isFalse();
        assertThat(read.watching()).isFalse();
    }

    @Test
    void shouldSayWhetherTheShipperIsFencedAndReadAnOlderShippersSilenceAsNot() throws Exception {
        PrimaryAnswer fenced = PrimaryAnswer.shipping(true, false, null).withFenced(true);

        assertThat(tree(ControlJson.write(fenced))).isEqualTo(tree("{\"shipping\":true,\"alive\":true,\"postmaster_exited\":false,"
                + "\"fenced\":true}"));
        assertThat(ControlJson.read(tree(ControlJson.write(fenced)), PrimaryAnswer.class).reportsFenced()).isTrue();
        assertThat(ControlJson.read(tree("{\"shipping\":true,\"alive\":true}"), PrimaryAnswer.class).reportsFenced()).isFalse();
        assertThat(PrimaryAnswer.notShipping().withFenced(false).reportsFenced()).isFalse();
    }

    @Test
    void shouldTellTheExitFromTheWatchOfAShipperThatDoesNotSayIt() throws Exception {
        PrimaryAnswer older = ControlJson.read(tree("{\"shipping\":true,\"alive\":false,\"postmaster_exited\":true,"
                + "\"postmaster\":{\"pid\":4711,\"exited\":true,\"watch\":\"exited: killed by signal 9\"}}"), PrimaryAnswer.class);

        assertThat(older.reportsExit()).isTrue();
        assertThat(older.watching()).isTrue();
        assertThat(older.exit()).isEqualTo("killed by signal 9");
        assertThat(ControlJson.read(tree(EXITED), PrimaryAnswer.class).exit()).isEqualTo("process 4711 exited (state Z)");
        assertThat(ControlJson.read(tree("{\"shipping\":true,\"postmaster_exited\":true}"), PrimaryAnswer.class).exit())
                .as("no watch at all").isEqualTo("exited");
    }

    private static JsonNode tree(String json) throws Exception {
        return PLAIN.readTree(json);
    }
}
