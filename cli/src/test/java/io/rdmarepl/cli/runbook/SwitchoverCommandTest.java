package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SwitchoverCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SWITCHED = """
            {"result":"switched","new_primary":"pgb","old_primary":"pga","epoch":4,"marker_lsn":"0/3000100",
             "message":"switched over from pga to pgb at epoch 4 in 120 ms; nothing lost",
             "rejoin":{"result":"rejoining","member":"pga","message":"pga rejoining as a standby of pgb"}}""";
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator()
                .answer("GET /status", 200, Answers.STATUS)
                .answer("POST /switchover", 200, SWITCHED);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPostTheTargetAndPrintTheSwitchoverAndTheRejoin() throws Exception {
        Run run = Run.of("switchover", "--to", "pgb", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).startsWith("switched over from pga to pgb at epoch 4 in 120 ms; nothing lost" + System.lineSeparator()
                + "then: pga rejoining as a standby of pgb");
        assertThat(coordinator.received()).singleElement().satisfies(request -> {
            assertThat(request.method() + " " + request.path()).isEqualTo("POST /switchover");
            assertThat(request.authorization()).isEqualTo("Bearer s3cret");
            assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"to\":\"pgb\"}"));
        });
    }

    @Test
    void shouldAskNamingBothMembers() {
        StringBuilder asked = new StringBuilder();

        Run run = Run.of(Run.answering("switchover", "yes", asked), "switchover", "--to", "pgb", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(asked).hasToString("Switch cluster main over from pga to pgb? pga refuses writes from now until the "
                + "promotion, then rejoins as a standby. Type 'yes': ");
    }

    @Test
    void shouldExitWith1AndSayWhyWhenTheCoordinatorRefuses() {
        coordinator.answer("POST /switchover", 409, "{\"error\":\"a switchover needs a HEALTHY cluster; it is PROMOTED\"}");

        Run run = Run.of("switchover", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("a switchover needs a HEALTHY cluster; it is PROMOTED");
    }
}
