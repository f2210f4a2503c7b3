package io.rdmarepl.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.role.ApplierRole;
import io.rdmarepl.applier.role.StatusWatch;
import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ApplyCommandTest {
    private static final String HEARD = "heard";
    @TempDir
    Path dir;

    @Test
    void shouldAnswerAStatusWatchAtOnceWhenAllHoldsAreTaken() throws Exception {
        ApplierRole waiting = ApplierRole.create(
                ApplierConfig.of("activation", "on-request"), new SimpleMeterRegistry());
        try {
            // nothing would change for 10 s: only the cap answers it sooner
            StatusWatch.Query unchanged = new StatusWatch.Query(20, true, "waiting", 10_000);
            Map<String, Object> answer = assertTimeoutPreemptively(Duration.ofSeconds(5),
                    () -> ApplyCommand.statusWatch(waiting, unchanged, new Semaphore(0)));
            assertThat(answer).containsEntry("state", "waiting");
        } finally {
            waiting.close();
        }
    }

    @Test
    void shouldNameAMissingOrWrongStatusWatchParameter() {
        assertThatThrownBy(() -> ApplyCommand.watchQuery(Map.of("silence_ms", "20", "state", "streaming", "wait_ms", "5")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("missing query parameter seen");
        assertThatThrownBy(() -> ApplyCommand.watchQuery(Map.of("silence_ms", "20", "seen", "maybe", "state", "streaming", "wait_ms", "5")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("seen must be heard or silent, got maybe");
        assertThatThrownBy(() -> ApplyCommand.watchQuery(Map.of("silence_ms", "soon", "seen", HEARD, "state", "streaming", "wait_ms", "5")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("silence_ms must be a whole number, got soon");
        assertThatThrownBy(() -> ApplyCommand.watchQuery(Map.of("silence_ms", "20", "seen", HEARD, "state", "streaming", "wait_ms", "10001")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("wait_ms must be 0..10000, got 10001");
        assertThat(ApplyCommand.watchQuery(Map.of("silence_ms", "20", "seen", "silent", "state", "streaming", "wait_ms", "500")))
                .isEqualTo(new StatusWatch.Query(20, true, "streaming", 500));
    }

    @Test
    void shouldExitWithCode2ListingEveryBadKeyWithThePasswordMasked() throws Exception {
        Path config = dir.resolve("applier.properties");
        Files.writeString(config, "apply.batch.max.rows=0\nreplica.password=s3cret\nreplica.user=\nring.epoch=-1\nbogus.key=1\n");
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("apply", "--config", config.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("rdmarepl: " + config + ": 4 problems:\n")
                .contains("\n  apply.batch.max.rows=0: must be between 1 and 100000", "\n  replica.user=: must not be empty",
                        "\n  ring.epoch=-1: must be between 1 and 2147483647",
                        "\n  bogus.key: unknown key (every key is in docs/configuration/applier.md)")
                .doesNotContain("s3cret");
    }

    @Test
    void shouldExitWithCode2NamingAMissingConfigFile() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("apply", "--config", dir.resolve("missing.properties").toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("cannot read configuration file", "missing.properties");
    }

    @Test
    void shouldNameTheActivationKeyWhenItsValueIsUnknown() throws Exception {
        Path config = dir.resolve("applier.properties");
        Files.writeString(config, "activation=later\n");
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        assertThat(commandLine.execute("apply", "--config", config.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("activation=later: must be one of immediate, on-request");
    }

    @Test
    void shouldServeOnlyTheAdminEndpointUntilActivatedAndRefuseWhatNeedsAnApplier() throws Exception {
        Path ring = dir.resolve("ring");
        String unreachable = "jdbc:postgresql://127.0.0.1:1/postgres";
        try (RunningApply apply = RunningApply.start(dir, "activation=on-request\nring.uri=shm://" + ring
                + "\nreplica.jdbc.url=" + unreachable + "\nreplica.connect.timeout.ms=250\n")) {
            assertThat(apply.output()).contains("waits for the coordinator (POST http://127.0.0.1:")
                    .contains("/activate)");
            assertThat(json(apply.get("/status"))).containsExactly(Map.entry("state", "waiting"),
                    Map.entry("reason", "waiting for POST /activate (activation=on-request)"),
                    Map.entry("activation", "on-request"));
            assertThat(apply.get("/health").code()).isEqualTo(200);

            RunningApply.Answer drain = apply.post("/drain", "");
            assertThat(drain.code()).isEqualTo(409);
            assertThat(drain.body()).contains("not following: activate it first");
            RunningApply.Answer promote = apply.post("/promote", "{\"epoch\": 2}");
            assertThat(promote.code()).isEqualTo(409);
            assertThat(promote.body()).contains("not following: activate it first");
            assertThat(apply.postWithoutToken("/activate").code()).isEqualTo(401);
            for (String bad : new String[] {"{\"epoch\": 0}", "{\"epoch\": -3}", "{\"epoch\": 1.5}", "{\"epoch\": \"2\"}",
                    "{\"epoch\": 3000000000}", "[2]", "epoch=2"}) {
                RunningApply.Answer answer = apply.post("/activate", bad);
                assertThat(answer.code()).as("POST /activate %s", bad).isEqualTo(400);
            }
            assertThat(apply.post("/activate", "{\"epoch\": 0}").body()).contains("epoch must be a positive integer, got 0");

            // allowed, but the replica is unreachable: a server-side failure, and the applier still waits
            RunningApply.Answer failed = apply.post("/activate", "{\"epoch\": 2}");
            assertThat(failed.code()).isEqualTo(500);
            assertThat(failed.body()).contains("activation failed, still waiting", "127.0.0.1:1");
            Map<String, Object> status = json(apply.get("/status"));
            assertThat(status).containsEntry("state", "waiting");
            assertThat(status.get("reason")).asString().contains("the last activation failed");
            assertThat(ring).as("ring of an applier that never started").doesNotExist();
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json(RunningApply.Answer answer) throws Exception {
        assertThat(answer.code()).as("HTTP status of %s", answer.body()).isEqualTo(200);
        return new ObjectMapper().readValue(answer.body(), Map.class);
    }
}
