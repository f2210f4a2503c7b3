package io.rdmarepl.cli.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class LeaseGuardCommandTest {
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setOut(new PrintWriter(new StringWriter()));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    @Test
    void shouldRefuseAShipperConfigurationWithoutALeaseAndExitWith2(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("shipper.properties");
        Files.writeString(config, "standbys=a\nstandby.a.uri=shm:///dev/shm/none\n"); // no admin.token: auto is off
        assertThat(run("lease-guard", "--config", config.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("fence.lease.ms is 0 in " + config).contains("nothing to guard").doesNotContain("\tat ");
    }

    @Test
    void shouldNameAMissingConfigFile(@TempDir Path dir) {
        assertThat(run("lease-guard", "--config", dir.resolve("nope.properties").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("nope.properties").contains("does not exist");
    }
}
