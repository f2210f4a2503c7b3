package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.harness.HarnessCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ChannelBenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = HarnessCommand.commandLine();
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
    void shouldRefuseUnknownTransports() {
        assertThat(run("bench", "channel", "--transport", "tcp")).isEqualTo(2);
        assertThat(err.toString()).contains("--transport tcp: must be shm, softrdma or rdma");
    }

    @Test
    void shouldExplainWhyNativeRdmaCannotRunOnThisHost() {
        assertThat(run("bench", "channel", "--transport", "rdma")).isEqualTo(2);
        assertThat(err.toString()).contains("--transport rdma: DiSNI native verbs cannot run on this host")
                .contains("libdisni").contains("/dev/infiniband").contains("--transport softrdma");
    }

    @Test
    void shouldRefuseAUriOfAnotherTransport() {
        assertThat(run("bench", "channel", "--transport", "softrdma", "--uri", "shm:///dev/shm/x")).isEqualTo(2);
        assertThat(err.toString()).contains("--uri shm:///dev/shm/x: is shm://, but --transport is softrdma");
    }

    @Test
    void shouldListExitCodesInHelp() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("bench").contains("2   bad usage or configuration");
    }
}
