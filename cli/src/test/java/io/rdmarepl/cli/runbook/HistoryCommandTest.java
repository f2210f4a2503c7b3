package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HistoryCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator().answer("GET /history", 200, Answers.HISTORY);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPrintChangesNewestLastWithUtcTimes() {
        Run run = Run.of("history", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualToNormalizingNewlines("""
                TIME                      FROM           TO       EPOCH  REASON
                2024-05-01T03:00:00.000Z  uninitialised  HEALTHY  1      cluster initialised with primary pga
                2024-05-01T03:00:12.345Z  HEALTHY        SUSPECT  1      primary pga failed 3 probes
                2024-05-01T03:00:13.000Z  SUSPECT        FENCING  1      failing over to pgb
                """);
    }

    @Test
    void shouldShowOnlyTheLastNChanges() {
        Run run = Run.of("history", "--limit", "2", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out().lines()).hasSize(3).element(1).asString().startsWith("2024-05-01T03:00:12.345Z");
    }

    @Test
    void shouldPrintTheLastNEntriesWithJson() throws Exception {
        Run run = Run.of("history", "--json", "--limit", "1", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree("""
                {"history":[{"at_ms":1714532413000,"from":"SUSPECT","to":"FENCING","reason":"failing over to pgb","epoch":1}]}
                """));
    }

    @Test
    void shouldExitWith2OnANonPositiveLimitWithoutAsking() {
        Run run = Run.of("history", "--limit", "0", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("rdmarepl history: --limit must be at least 1, got 0" + System.lineSeparator());
        assertThat(coordinator.received()).isEmpty();
    }
}
