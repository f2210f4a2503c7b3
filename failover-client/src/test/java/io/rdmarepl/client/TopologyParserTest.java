package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopologyParserTest {
    private static final String CONTRACT_EXAMPLE = """
        {"cluster":"main","version":12,"epoch":3,"phase":"HEALTHY",
         "primary":{"name":"pga","jdbc_url":"jdbc:postgresql://10.0.0.1:5432/app"},
         "members":[{"name":"pga","jdbc_url":"jdbc:postgresql://10.0.0.1:5432/app","role":"PRIMARY"},
                    {"name":"pgb","jdbc_url":"jdbc:postgresql://10.0.0.2:5432/app","role":"STANDBY"},
                    {"name":"pgc","jdbc_url":"jdbc:postgresql://10.0.0.3:5432/app","role":"FENCED"}]}
        """;

    @Test
    void shouldReadTheContractExample() {
        final Topology topology = TopologyParser.parse(CONTRACT_EXAMPLE);

        assertThat(topology.cluster()).isEqualTo("main");
        assertThat(topology.version()).isEqualTo(12);
        assertThat(topology.epoch()).isEqualTo(3);
        assertThat(topology.phase()).isEqualTo("HEALTHY");
        assertThat(topology.primary()).isEqualTo(new Member("pga", "jdbc:postgresql://10.0.0.1:5432/app", "PRIMARY"));
        assertThat(topology.members()).extracting(Member::name, Member::role)
            .containsExactly(
                org.assertj.core.groups.Tuple.tuple("pga", "PRIMARY"),
                org.assertj.core.groups.Tuple.tuple("pgb", "STANDBY"),
                org.assertj.core.groups.Tuple.tuple("pgc", "FENCED"));
        assertThat(topology.describe()).isEqualTo("v12 epoch 3 HEALTHY primary pga");
    }

    @Test
    void shouldReadWhetherTheCoordinatorLeadsAndHowOldItsStateIs() {
        final Topology topology = TopologyParser.parse(
            "{\"version\":4,\"epoch\":2,\"phase\":\"HEALTHY\",\"leader\":false,\"age_ms\":2500}");

        assertThat(topology.leader()).isFalse();
        assertThat(topology.ageMs()).isEqualTo(2500);
    }

    @Test
    void shouldTakeACoordinatorThatSaysNothingOfItsStateForAnOlderOne() {
        final Topology topology = TopologyParser.parse(CONTRACT_EXAMPLE);

        assertThat(topology.leader()).isTrue();
        assertThat(topology.ageMs()).isEqualTo(-1);
    }

    @Test
    void shouldIgnoreFieldsAndValuesAddedByANewerCoordinator() {
        final Topology topology = TopologyParser.parse("""
            {"cluster":"main","version":13,"epoch":4,"phase":"REBALANCING","lease_ms":3000,
             "history":[{"epoch":3}],"flags":{"x":true},
             "primary":{"name":"pgb","jdbc_url":"jdbc:postgresql://b/app","lsn":"0/16B3748","zone":"eu-1"},
             "members":[{"name":"pgb","jdbc_url":"jdbc:postgresql://b/app","role":"PRIMARY","lag_bytes":0},
                        {"name":"pgd","jdbc_url":"jdbc:postgresql://d/app","role":"WITNESS","weight":2}]}
            """);

        assertThat(topology.version()).isEqualTo(13);
        assertThat(topology.phase()).isEqualTo("REBALANCING");
        assertThat(topology.primary().name()).isEqualTo("pgb");
        assertThat(topology.members()).extracting(Member::role).containsExactly("PRIMARY", "WITNESS");
    }

    @Test
    void shouldReadANullPrimaryAsAFailoverInProgress() {
        final Topology topology = TopologyParser.parse(
            "{\"version\":14,\"epoch\":3,\"phase\":\"FENCING\",\"primary\":null,\"members\":[]}");

        assertThat(topology.primaryIfKnown()).isEmpty();
        assertThat(topology.cluster()).isEmpty();
        assertThat(topology.describe()).isEqualTo("v14 epoch 3 FENCING no primary");
    }

    @Test
    void shouldNameTheMissingField() {
        assertThatThrownBy(() -> TopologyParser.parse("{\"epoch\":3,\"phase\":\"HEALTHY\"}"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("topology field 'version' must be an integer, got nothing");
    }

    @Test
    void shouldRejectAPrimaryWithoutJdbcUrl() {
        assertThatThrownBy(() -> TopologyParser.parse(
            "{\"version\":1,\"epoch\":1,\"phase\":\"HEALTHY\",\"primary\":{\"name\":\"pga\"}}"))
            .hasMessage("primary field 'jdbc_url' must be a non-empty string, got nothing");
    }

    @Test
    void shouldRejectAVersionThatIsNotAnInteger() {
        assertThatThrownBy(() -> TopologyParser.parse("{\"version\":\"12\",\"epoch\":3,\"phase\":\"HEALTHY\"}"))
            .hasMessage("topology field 'version' must be an integer, got \"12\"");
    }

    @Test
    void shouldRejectTextThatIsNotJson() {
        assertThatThrownBy(() -> TopologyParser.parse("<html>502 Bad Gateway</html>"))
            .hasMessageStartingWith("topology is not JSON: ");
    }
}
