package io.rdmarepl.coordinator.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The failover a coordinator plays through in memory before it starts: it must reach PROMOTED and leave nothing behind. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailoverRehearsalTest {
    @Test
    void shouldPromoteTheStandbyInEveryRound() {
        FailoverRehearsal.Result result = FailoverRehearsal.run(2);

        assertThat(result.rounds()).isEqualTo(2);
        assertThat(result.promoted()).as(result.sentence()).isEqualTo(2);
        assertThat(result.sentence()).startsWith("rehearsed 2 of 2 failover(s) in memory in ");
    }

    @Test
    void shouldRemoveItsStateFileAndDirectory() throws IOException {
        List<Path> before = rehearsalDirectories();

        FailoverRehearsal.run(1);

        assertThat(rehearsalDirectories()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void shouldRehearseNothingWithNoRounds() {
        FailoverRehearsal.Result result = FailoverRehearsal.run(0);

        assertThat(result.promoted()).isZero();
        assertThat(result.sentence()).startsWith("rehearsed 0 of 0 failover(s)");
    }

    private static List<Path> rehearsalDirectories() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("rdmarepl-rehearsal-")).toList();
        }
    }
}
