package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FenceCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FENCED = """
            {"result":"fenced","member":"pga","message":"pga refuses writes (default_transaction_read_only=on)"}
            """;
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator()
                .answer("GET /status", 200, Answers.STATUS)
                .answer("POST /fence", 200, FENCED);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPostTheMemberWithTheTokenAndPrintTheMessage() throws Exception {
        Run run = Run.of("fence", "pga", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("pga refuses writes (default_transaction_read_only=on)" + System.lineSeparator());
        assertThat(coordinator.received()).singleElement().satisfies(request -> {
            assertThat(request.method() + " " + request.path()).isEqualTo("POST /fence");
            assertThat(request.authorization()).isEqualTo("Bearer s3cret");
            assertThat(JSON.readTree(request.body())).isEqualTo(JSON.readTree("{\"member\":\"pga\"}"));
        });
    }

    @Test
    void shouldSayWritesStopWhenAskingToFenceThePrimary() {
        StringBuilder asked = new StringBuilder();

        Run.of(Run.answering("fence", "yes", asked), "fence", "pga", "--coordinator", coordinator.url());

        assertThat(asked).hasToString("Fence pga, the PRIMARY of cluster main? Writes stop until a standby is promoted. Type 'yes': ");
    }

    @Test
    void shouldAskPlainlyWhenFencingAStandby() {
        StringBuilder asked = new StringBuilder();

        Run.of(Run.answering("fence", "yes", asked), "fence", "pgc", "--coordinator", coordinator.url());

        assertThat(asked).hasToString("Fence pgc in cluster main? It will refuse writes. Type 'yes': ");
    }

    @Test
    void shouldRefuseWithoutYesWhenThereIsNoConsoleAndSendNothing() {
        assumeTrue(System.console() == null, "this JVM has a console");

        Run run = Run.of("fence", "pga", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).startsWith("rdmarepl fence: refusing to fence pga without confirmation");
        assertThat(coordinator.received()).isEmpty();
    }

    @Test
    void shouldExitWith1PrintingTheCoordinatorsReasonWhenRefused() {
        coordinator.answer("POST /fence", 409, "{\"error\":\"no member named pgx\"}");

        Run run = Run.of("fence", "pgx", "--yes", "--token", "s3cret", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("rdmarepl fence: refused: no member named pgx" + System.lineSeparator());
    }
}
