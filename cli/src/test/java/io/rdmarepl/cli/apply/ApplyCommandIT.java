package io.rdmarepl.cli.apply;

import static io.rdmarepl.cli.apply.ApplyCommandTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The applier's admin contract the coordinator relies on for switchover and rejoin, over HTTP, on a real replica. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApplyCommandIT {
    private static PostgresServer replica;

    @TempDir
    Path dir;

    @BeforeAll
    static void startReplica() {
        replica = PostgresServer.replica(Durability.FAST);
    }

    @AfterAll
    static void stopReplica() {
        if (replica != null) {
            replica.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldActivatePromoteAndActivateAgainOverHttp() throws Exception {
        String ringUri = "shm://" + dir.resolve("ring").toAbsolutePath();
        try (RunningApply apply = RunningApply.start(dir, "activation=on-request\nsource.name=pga\nring.uri=" + ringUri
                + "\nreplica.jdbc.url=" + replica.jdbcUrl("postgres") + "\n")) {
            assertThat(json(apply.get("/status"))).containsEntry("state", "waiting");

            assertThat(json(apply.post("/activate", "{\"epoch\": 2}")))
                    .containsExactly(Map.entry("state", "streaming"), Map.entry("ring", ringUri), Map.entry("epoch", 2));
            Map<String, Object> status = json(apply.get("/status"));
            assertThat(status).containsEntry("state", "streaming").containsEntry("activation", "on-request")
                    .containsKeys("last_message_age_ms", "lag_ms");
            assertThat((Map<String, Object>) status.get("position")).containsKeys("applied_lsn", "durable_lsn");
            assertThat((Map<String, Object>) status.get("ring")).containsEntry("epoch", 2).containsKey("backlog_bytes");
            assertThat(apply.get("/health").code()).isEqualTo(200);

            RunningApply.Answer twice = apply.post("/activate", "");
            assertThat(twice.code()).isEqualTo(409);
            assertThat(twice.body()).contains("already following pga through " + ringUri + " (state streaming)");

            assertThat(json(apply.post("/drain", ""))).containsEntry("applied_lsn", "0/0");
            assertThat(json(apply.post("/promote", "{\"epoch\": 3}"))).containsEntry("state", "promoted");
            assertThat(json(apply.get("/status"))).containsEntry("state", "promoted");

            assertThat(json(apply.post("/activate", "{\"epoch\": 4}")))
                    .containsExactly(Map.entry("state", "streaming"), Map.entry("ring", ringUri), Map.entry("epoch", 4));
            assertThat((Map<String, Object>) json(apply.get("/status")).get("ring")).containsEntry("epoch", 4);
        }
    }
}
