package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Which systems a run measures, by mode (nothing is started). */
class LagBenchRunTest {

    @Test
    void shouldMeasureRdmareplAsyncAgainstPostgresqlsLogicalReplicationInLagMode() {
        List<ReplicationSystem> systems = run("--transports", "shm").systems();

        assertThat(systems).extracting(ReplicationSystem::label).containsExactly("rdmarepl over shm", "postgresql logical (sync off)");
        assertThat(systems).noneMatch(ReplicationSystem::synchronous);
        assertThat(systems).extracting(ReplicationSystem::targetDatabase).containsExactly("rdmarepl_lag_shm", "rdmarepl_lag_native");
    }

    @Test
    void shouldMeasureEverySyncSystemButThePhysicalStandbyOnAttachedServers() {
        LagBenchRun run = run("--mode", "sync", "--primary", "jdbc:postgresql://127.0.0.1:5432/postgres", "--replica",
                "jdbc:postgresql://127.0.0.1:5433/postgres");

        List<ReplicationSystem> systems = run.systems();

        assertThat(systems).extracting(ReplicationSystem::label).containsExactly("rdmarepl async over shm", "rdmarepl sync over shm",
                "postgresql logical sync");
        assertThat(systems).extracting(ReplicationSystem::synchronous).containsExactly(false, true, true);
        assertThat(systems).extracting(ReplicationSystem::targetDatabase).as("one replica database each")
                .containsExactly("rdmarepl_lag_shm", "rdmarepl_lag_shm_sync", "rdmarepl_lag_native");
        assertThat(run.notRun()).singleElement().satisfies(m -> {
            assertThat(m).containsEntry("system", "postgresql physical sync");
            assertThat((String) m.get("reason")).startsWith("attached servers");
        });
    }

    @Test
    void shouldKnowEveryApplicationNameItListsAsItsOwn() {
        assertThat(SynchronousStandbys.OURS).containsExactlyInAnyOrder("rdmarepl_lag", "rdmarepl_lag_native", "rdmarepl_reference");
        assertThat(new NativePhysicalSystem(null, null, "rdmarepl_lag").stampsApplied()).isFalse();
        assertThat(new NativePhysicalSystem(null, null, "rdmarepl_lag").targetDatabase()).isNull();
    }

    private static LagBenchRun run(String... args) {
        LagBenchCommand command = new LagBenchCommand();
        new CommandLine(command).parseArgs(args);
        LagBenchSettings settings = LagBenchSettings.of(command, Map.of());
        Progress progress = new Progress(new PrintWriter(new StringWriter()), 1);
        progress.close();
        return new LagBenchRun(settings, settings.primary(), settings.replica(), null, progress);
    }
}
