package io.rdmarepl.cli.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.cli.RdmareplCommand;
import io.rdmarepl.testsupport.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ShipCommandTest {
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setOut(new PrintWriter(new StringWriter()));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    @Test
    void shouldNameAMissingConfigFile(@TempDir Path dir) {
        assertThat(run("ship", "--config", dir.resolve("nope.properties").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("configuration file").contains("nope.properties").contains("does not exist");
    }

    @Test
    void shouldListEveryBadKeyAndExitWith2(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shipper.properties");
        Files.writeString(config, "standbys=a\nstandby.a.uri=nope://x\ndatabase.password=secret\nslot.nam=typo\n");
        assertThat(run("ship", "--config", config.toString())).isEqualTo(2);
        assertThat(err.toString())
                .startsWith("rdmarepl: " + config + ": 2 problems:\n")
                .contains("\n  standby.a.uri=nope://x: channel URI 'nope://x' has unknown scheme 'nope'")
                .contains("\n  slot.nam: unknown key (did you mean slot.name?)")
                .doesNotContain("secret");
    }

    @Test
    void shouldWaitForTheCoordinatorWithoutTouchingThePrimary(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shipper.properties");
        Files.writeString(config, "standbys=a\nstandby.a.uri=shm:///dev/shm/none\ndatabase.host=127.0.0.1\ndatabase.port=1\n"
                + "activation=on-request\nadmin.address=127.0.0.1:0\n");
        CommandLine commandLine = RdmareplCommand.commandLine();
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> commandLine.execute("ship", "--config", config.toString()));
        Await.until("the shipper printed its admin address, or exited", Duration.ofSeconds(10),
                () -> out.toString().contains("/status") || exit.isDone());
        assertThat(out.toString()).contains("rdmarepl ship: primary slot rdmarepl waits for the coordinator to activate it (POST /activate)");
        java.util.regex.Matcher port = java.util.regex.Pattern.compile("127\\.0\\.0\\.1:(\\d+)/status").matcher(out.toString());
        assertThat(port.find()).isTrue();
        java.net.http.HttpResponse<String> status = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port.group(1) + "/status")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(status.body()).contains("\"role_state\":\"waiting\"").contains("\"activation\":\"on-request\"");
        ((ShipCommand) commandLine.getSubcommands().get("ship").getCommand()).stop();
        assertThat(exit.get(10, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldNameAnUnreachablePrimaryAndExitWith1(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shipper.properties");
        Files.writeString(config, "standbys=a\nstandby.a.uri=shm:///dev/shm/none\ndatabase.host=127.0.0.1\ndatabase.port=1\n");
        assertThat(run("ship", "--config", config.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("primary postgres@127.0.0.1:1/postgres unreachable").doesNotContain("\tat ");
    }
}
