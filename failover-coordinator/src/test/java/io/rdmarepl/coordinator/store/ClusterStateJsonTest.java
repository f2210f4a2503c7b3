package io.rdmarepl.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.ClusterState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ClusterStateJsonTest {
    private static final String SOURCE = "state file /var/lib/rdmarepl/main.json";

    @Test
    void shouldRoundTripEveryField() {
        ClusterState state = States.promotionBy("coord-a", States.initial("main"));

        ClusterState read = ClusterStateJson.read(ClusterStateJson.write(state), SOURCE);

        assertThat(read).isEqualTo(state);
    }

    @Test
    void shouldWriteTheStableSnakeCaseDocument() throws IOException {
        byte[] written = ClusterStateJson.writeVersioned(7, States.initial("main"));

        assertThat(new String(written, StandardCharsets.UTF_8).strip()).isEqualTo(golden().strip());
    }

    @Test
    void shouldReadTheDocumentsOfThisVersion() throws IOException {
        Versioned<ClusterState> read = ClusterStateJson.readVersioned(golden().getBytes(StandardCharsets.UTF_8), SOURCE);

        assertThat(read).isEqualTo(new Versioned<>(States.initial("main"), 7));
    }

    @Test
    void shouldNameSourceAndLineOfATruncatedDocument() throws IOException {
        String truncated = golden().substring(0, 200);

        assertThatThrownBy(() -> ClusterStateJson.readVersioned(truncated.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageStartingWith(SOURCE + " is corrupt: ")
                .hasMessageContaining("$.state.members[0].jdbc_url: Unexpected end-of-input")
                .hasMessageContaining("(line 10, column 37)");
    }

    @Test
    void shouldNameTheJsonPathOfAnUnknownRole() throws IOException {
        String badRole = golden().replace("\"STANDBY\"", "\"LEADER\"");

        assertThatThrownBy(() -> ClusterStateJson.readVersioned(badRole.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageStartingWith(SOURCE + " is corrupt: $.state.members[1].role: ")
                .hasMessageContaining("LEADER");
    }

    @Test
    void shouldRejectAnUnknownFieldRatherThanDropIt() {
        String newer = "{\"cluster\":\"main\",\"epoch\":1,\"primary\":\"pg1\",\"phase\":\"HEALTHY\","
                + "\"members\":[],\"history\":[],\"witness\":\"w1\"}";

        assertThatThrownBy(() -> ClusterStateJson.read(newer.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("is corrupt: $.witness: ")
                .hasMessageContaining("Unrecognized field \"witness\"");
    }

    @Test
    void shouldNameAMissingField() {
        String noMembers = "{\"cluster\":\"main\",\"epoch\":1,\"primary\":\"pg1\",\"phase\":\"HEALTHY\",\"history\":[]}";

        assertThatThrownBy(() -> ClusterStateJson.read(noMembers.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("is corrupt: $.members: Missing creator property 'members'");
    }

    @Test
    void shouldNameANullList() {
        String nullMembers = "{\"cluster\":\"main\",\"epoch\":1,\"primary\":\"pg1\",\"phase\":\"HEALTHY\","
                + "\"members\":null,\"history\":[]}";

        assertThatThrownBy(() -> ClusterStateJson.read(nullMembers.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("is corrupt: $.members: ")
                .hasMessageContaining("null");
    }

    @Test
    void shouldSayAnEmptyDocumentIsEmpty() {
        assertThatThrownBy(() -> ClusterStateJson.readVersioned(new byte[0], SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessage(SOURCE + " is corrupt: it is empty (0 bytes)");
    }

    @Test
    void shouldRejectANegativeVersion() throws IOException {
        String negative = golden().replace("\"version\" : 7", "\"version\" : -3");

        assertThatThrownBy(() -> ClusterStateJson.readVersioned(negative.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessage(SOURCE + " is corrupt: $.version is -3, must be >= 0");
    }

    @Test
    void shouldRejectGarbageAfterTheDocument() throws IOException {
        String twice = golden() + golden();

        assertThatThrownBy(() -> ClusterStateJson.readVersioned(twice.getBytes(StandardCharsets.UTF_8), SOURCE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("Trailing token");
    }

    private static String golden() throws IOException {
        try (InputStream in = ClusterStateJsonTest.class.getResourceAsStream("state-file-v7.json")) {
            assertThat(in).as("test resource state-file-v7.json").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
