package io.rdmarepl.cli.ship;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.cli.apply.RunningApply;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code rdmarepl ship} as a process lives and ends, on a real primary and a real standby. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShipCommandIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    /**
     * The coordinator confirms a dead primary's fence by the shipper's word that its postmaster exited, and waits out
     * the primary's whole lease without it. The shipper fails about 0.1 s after its postmaster (its replication
     * connection dies with it), so it must go on answering {@code /primary} with the exit for a while, not exit at once.
     */
    @Test
    void aShipperWhosePostmasterExitedKeepsReportingItBeforeItExits() throws Exception {
        shipUntilThePrimaryIsKilled("5");
    }

    /**
     * The replication connection dies with the postmaster, before the watch's next tick: here it ticks every second
     * (the heartbeat interval), so shipping has failed long before the watch would see the exit by itself. The shipper
     * has the watch look now before it decides there is no exit to report (deciding on what the watch had seen, it
     * exited unreported in 2 runs of 2, and a coordinator would have waited out the old primary's lease).
     */
    @Test
    void aShipperHasItsWatchLookAgainBeforeDecidingThereIsNoExitToReport() throws Exception {
        shipUntilThePrimaryIsKilled("1000");
    }

    private void shipUntilThePrimaryIsKilled(String heartbeatMs) throws Exception {
        try (PostgresServer primary = PostgresServer.builder("ship_exit").durability(Durability.FAST).start();
             PostgresServer replica = PostgresServer.replica(Durability.FAST)) {
            String ring = "shm://" + dir.resolve("ring").toAbsolutePath();
            try (RunningApply standby = RunningApply.start(dir, "source.name=pga\nring.uri=" + ring
                    + "\nreplica.jdbc.url=" + replica.jdbcUrl("postgres") + "\n")) {
                Path config = dir.resolve("shipper.properties");
                Files.writeString(config, String.join("\n", "database.host=" + PostgresServer.HOST, "database.port=" + primary.port(),
                        "database.user=" + PostgresServer.SUPERUSER, "source.name=pga", "standbys=a", "standby.a.uri=" + ring,
                        "admin.address=127.0.0.1:0", "fence.lease.ms=0", "fence.lease.dir=" + dir, "heartbeat.interval.ms=" + heartbeatMs,
                        ""));
                ShipCommand command = new ShipCommand();
                CountDownLatch started = new CountDownLatch(1);
                command.onStarted(started::countDown);
                StringWriter out = new StringWriter();
                CommandLine commandLine = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(out, true));
                int[] exitCode = {-1};
                Thread thread = new Thread(() -> exitCode[0] = commandLine.execute("--config", config.toString()), "rdmarepl-ship-test");
                thread.start();
                try {
                    assertThat(started.await(60, TimeUnit.SECONDS)).as("rdmarepl ship started; output: %s", out).isTrue();
                    URI admin = URI.create("http://127.0.0.1:" + command.adminAddress().getPort());
                    Await.until("the shipper watches the primary's postmaster", WAIT, () -> get(admin, "/primary"),
                            answer -> answer.path("postmaster").path("pid").asLong() == primary.pid());

                    ProcessHandle.of(primary.pid()).orElseThrow().destroyForcibly();
                    Await.until("the shipper failed with its primary", WAIT, () -> get(admin, "/status"),
                            status -> "failed".equals(status.path("state").asText()));
                    Await.until("the shipper answers that the postmaster exited", WAIT, () -> get(admin, "/primary"),
                            answer -> answer.path("postmaster_exited").asBoolean());
                    Await.holds("after failing, the shipper still answers that the postmaster exited", Duration.ofMillis(1000),
                            () -> get(admin, "/primary").path("postmaster_exited").asBoolean());
                    thread.join(TimeUnit.SECONDS.toMillis(30));
                    assertThat(thread.isAlive()).as("rdmarepl ship exits once the exit was reported").isFalse();
                    assertThat(exitCode[0]).as("a failed shipper exits non-zero; output: %s", out).isNotZero();
                    assertThat(out.toString()).contains("the primary's postmaster exited; answering /primary for 2000 ms");
                } finally {
                    command.stop();
                    thread.join(TimeUnit.SECONDS.toMillis(30));
                }
            }
        }
    }

    private JsonNode get(URI admin, String path) throws Exception {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(admin.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(answer.body());
    }
}
