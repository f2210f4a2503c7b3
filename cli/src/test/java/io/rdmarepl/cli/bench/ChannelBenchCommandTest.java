package io.rdmarepl.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ChannelBenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine.execute(args);
    }

    @Test
    void shouldReportEveryBadOptionAtOnceWithExitCode2() {
        int code = run("bench", "channel", "--frame-size", "100", "--capacity", "1000", "--rate", "0", "--idle", "nap");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("--frame-size 100: must be a multiple of 8")
                .contains("--capacity: ring capacity must be a power of two")
                .contains("--rate 0")
                .contains("--idle nap: must be spin or backoff");
    }

    @Test
    void shouldRefuseTransportsThisBuildDoesNotHave() {
        assertThat(run("bench", "channel", "--transport", "rdma")).isEqualTo(2);
        assertThat(err.toString()).contains("--transport rdma: only shm is available");
    }

    @Test
    void shouldListExitCodesInHelp() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("bench").contains("2   bad usage or configuration");
    }
}
