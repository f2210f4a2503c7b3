package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FailoverCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator()
                .answer("GET /status", 200, Answers.STATUS)
                .answer("POST /failover", 200, Answers.PROMOTED);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPostNoTargetAndNoForceWithTheBearerTokenAndPrintTheMessage() throws Exception {
        Run run = Run.of("failover", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("pgb promoted at epoch 4 in 180 ms; pga refuses writes" + System.lineSeparator());
        assertThat(coordinator.received()).singleElement().satisfies(request -> {
            assertThat(request.method() + " " + request.path()).isEqualTo("POST /failover");
            assertThat(request.authorization()).isEqualTo("Bearer s3cret");
            assertThat(request.contentType()).isEqualTo("application/json");
            assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"to\":null,\"force\":false}"));
        });
    }

    @Test
    void shouldPostTheChosenStandbyAndForce() throws Exception {
        Run run = Run.of("failover", "--to", "pgb", "--force", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(JSON.readTree(coordinator.received().get(0).body())).isEqualTo(JSON.readTree("{\"to\":\"pgb\",\"force\":true}"));
    }

    @Test
    void shouldPrintTheCoordinatorsAnswerWithJson() throws Exception {
        Run run = Run.of("failover", "--json", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree(Answers.PROMOTED));
    }

    @Test
    void shouldRefuseWithoutYesWhenThereIsNoConsoleAndSendNothing() {
        assumeTrue(System.console() == null, "this JVM has a console");

        Run run = Run.of("failover", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("rdmarepl failover: refusing to fail over without confirmation: there is no terminal "
                + "to ask on; add --yes to confirm; nothing was sent to the coordinator" + System.lineSeparator());
        assertThat(coordinator.received()).isEmpty();
    }

    @Test
    void shouldAskNamingClusterPrimaryAndTargetAndPostOnYes() {
        StringBuilder asked = new StringBuilder();

        Run run = Run.of(Run.answering("failover", "yes", asked), "failover", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(asked).hasToString("Fail over cluster main from pga to the best standby? Type 'yes': ");
        assertThat(coordinator.received()).extracting(r -> r.method() + " " + r.path())
                .isEqualTo(List.of("GET /status", "POST /failover"));
    }

    @Test
    void shouldWarnWhatIsLostWhenAskingToForce() {
        StringBuilder asked = new StringBuilder();

        Run.of(Run.answering("failover", "yes", asked), "failover", "--to", "pgb", "--force", "--coordinator", coordinator.url());

        assertThat(asked).hasToString("Fail over cluster main from pga to pgb? (--force: even if pga is healthy; what it committed "
                + "beyond pgb's applied position is lost) Type 'yes': ");
    }

    @Test
    void shouldSendNothingWhenTheAnswerIsNotYes() {
        Run run = Run.of(Run.answering("failover", "y", new StringBuilder()), "failover", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("rdmarepl failover: not confirmed (answered 'y'); nothing was sent to the coordinator"
                + System.lineSeparator());
        assertThat(coordinator.received()).extracting(CannedCoordinator.Received::method).containsOnly("GET");
    }

    @Test
    void shouldExitWith1PrintingTheCoordinatorsReasonWhenRefused() {
        coordinator.answer("POST /failover", 409, "{\"error\":\"primary pga has not failed (primary pga answers): "
                + "use `rdmarepl failover --force` to fail over anyway\"}");

        Run run = Run.of("failover", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("rdmarepl failover: refused: primary pga has not failed (primary pga answers): "
                + "use `rdmarepl failover --force` to fail over anyway" + System.lineSeparator());
    }

    @Test
    void shouldExitWith4NamingTheTokenOptionsWhenTheTokenIsWrong() {
        coordinator.answer("POST /failover", 401, "{\"error\":\"missing or wrong control token\"}");

        Run run = Run.of("failover", "--yes", "--token", "wrong", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(4);
        assertThat(run.err()).isEqualTo("rdmarepl failover: not authorised: the coordinator rejected the token (missing or wrong "
                + "control token); check --token / RDMAREPL_ADMIN_TOKEN against the coordinator's admin.token"
                + System.lineSeparator());
    }

    @Test
    void shouldExitWith4SayingNoTokenWasGivenAndSendNoAuthorization() {
        assumeTrue(System.getenv("RDMAREPL_ADMIN_TOKEN") == null, "RDMAREPL_ADMIN_TOKEN is set in this environment");
        coordinator.answer("POST /failover", 401, "{\"error\":\"missing or wrong control token\"}");

        Run run = Run.of("failover", "--yes", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(4);
        assertThat(run.err()).contains("no admin token given; pass --token or set RDMAREPL_ADMIN_TOKEN");
        assertThat(coordinator.received()).singleElement().extracting(CannedCoordinator.Received::authorization).isNull();
    }

    @Test
    void shouldExitWith3SayingTheOutcomeIsUnknownWhenTheAnswerIsLate() {
        coordinator.answerAfter("POST /failover", 3_000, 200, Answers.PROMOTED);

        Run run = Run.of("failover", "--yes", "--token", "s3cret", "--timeout-ms", "300", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("rdmarepl failover: the coordinator at " + coordinator.url() + " did not answer POST "
                + "/failover within 300 ms: the action may still be running; check `rdmarepl status` and `rdmarepl history` "
                + "before retrying" + System.lineSeparator());
    }

    @Test
    void shouldExitWith3WhenNothingListens() throws Exception {
        Run run = Run.of("failover", "--yes", "--token", "s3cret", "--coordinator", CannedCoordinator.closedPortUrl());

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err().lines()).singleElement().asString().startsWith("rdmarepl failover: cannot reach the coordinator at ");
    }

    @Test
    void shouldAskNothingWhenTheStatusForTheQuestionIsUnreachable() throws Exception {
        StringBuilder asked = new StringBuilder();

        Run run = Run.of(Run.answering("failover", "yes", asked), "failover", "--coordinator", CannedCoordinator.closedPortUrl());

        assertThat(run.code()).isEqualTo(3);
        assertThat(asked).isEmpty();
    }

    @Test
    void shouldDocumentAllFiveExitCodesInHelp() {
        Run run = Run.of("failover", "--help");

        assertThat(run.out()).contains("Exit codes:", "0   done", "1   refused by the coordinator", "2   bad usage",
                "3   coordinator unreachable", "4   not authorised", "--timeout-ms");
    }
}
