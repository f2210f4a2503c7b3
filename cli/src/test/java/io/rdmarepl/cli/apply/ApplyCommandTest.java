package io.rdmarepl.cli.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ApplyCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldExitWithCode2ListingEveryBadKeyWithThePasswordMasked() throws Exception {
        Path config = dir.resolve("applier.properties");
        Files.writeString(config, "apply.batch.max.rows=0\nreplica.password=s3cret\nreplica.user=\nring.epoch=-1\nbogus.key=1\n");
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("apply", "--config", config.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("rdmarepl: 4 configuration problems: ")
                .contains("apply.batch.max.rows=0: must be between 1 and 100000", "replica.user=: must not be empty",
                        "ring.epoch=-1: must be between 1 and 2147483647", "unknown key 'bogus.key'")
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
}
