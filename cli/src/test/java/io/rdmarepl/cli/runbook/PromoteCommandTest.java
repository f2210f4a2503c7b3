package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PromoteCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator()
                .answer("GET /status", 200, Answers.STATUS)
                .answer("POST /promote", 200, Answers.PROMOTED);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPostTheMemberWithTheTokenAndPrintTheMessage() throws Exception {
        Run run = Run.of("promote", "pgb", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("pgb promoted at epoch 4 in 180 ms; pga refuses writes" + System.lineSeparator());
        assertThat(coordinator.received()).singleElement().satisfies(request -> {
            assertThat(request.method() + " " + request.path()).isEqualTo("POST /promote");
            assertThat(request.authorization()).isEqualTo("Bearer s3cret");
            assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"member\":\"pgb\"}"));
        });
    }

    @Test
    void shouldAskNamingTheMemberAndThePrimaryItFences() {
        StringBuilder asked = new StringBuilder();

        Run run = Run.of(Run.answering("promote", "yes", asked), "promote", "pgb", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(asked).hasToString("Promote pgb to primary of cluster main (fencing pga first)? Type 'yes': ");
    }

    @Test
    void shouldRefuseWithoutYesWhenThereIsNoConsoleAndSendNothing() {
        assumeTrue(System.console() == null, "this JVM has a console");

        Run run = Run.of("promote", "pgb", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).startsWith("rdmarepl promote: refusing to promote pgb without confirmation").contains("--yes");
        assertThat(coordinator.received()).isEmpty();
    }

    @Test
    void shouldExitWith2WhenTheCoordinatorCallsTheRequestBad() {
        coordinator.answer("POST /promote", 400, "{\"error\":\"the request needs \\\"member\\\"\"}");

        Run run = Run.of("promote", "", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("rdmarepl promote: bad request: the request needs \"member\"" + System.lineSeparator());
    }

    @Test
    void shouldExitWith2WithoutAMemberName() {
        Run run = Run.of("promote", "--yes", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter: 'NAME'");
        assertThat(coordinator.received()).isEmpty();
    }

    @Test
    void shouldExitWith4WhenTheCoordinatorHasControlActionsDisabled() {
        coordinator.answer("POST /promote", 403, "{\"error\":\"control actions are disabled: no admin token configured\"}");

        Run run = Run.of("promote", "pgb", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(4);
        assertThat(run.err()).isEqualTo("rdmarepl promote: not authorised: control actions are disabled: no admin token configured "
                + "(set admin.token in the coordinator's configuration, then pass it with --token or RDMAREPL_ADMIN_TOKEN)"
                + System.lineSeparator());
    }
}
