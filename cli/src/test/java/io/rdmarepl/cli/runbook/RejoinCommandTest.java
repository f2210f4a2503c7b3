package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RejoinCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator()
                .answer("GET /status", 200, Answers.STATUS)
                .answer("POST /rejoin", 200, "{\"result\":\"rejoining\",\"member\":\"pga\",\"message\":\"pga rejoining as a standby of pgb\"}");
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPostTheMemberAndPrintTheMessage() throws Exception {
        Run run = Run.of("rejoin", "pga", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("pga rejoining as a standby of pgb" + System.lineSeparator());
        assertThat(coordinator.received()).singleElement().satisfies(request ->
                assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"member\":\"pga\"}")));
    }

    @Test
    void shouldWarnThatTheMembersTablesAreReplaced() {
        StringBuilder asked = new StringBuilder();

        Run run = Run.of(Run.answering("rejoin", "yes", asked), "rejoin", "pgb", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(asked).hasToString("Rejoin pgb as a standby of pga? Its tables are replaced by a copy of the primary's. Type 'yes': ");
    }
}
