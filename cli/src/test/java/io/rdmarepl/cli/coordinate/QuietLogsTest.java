package io.rdmarepl.cli.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class QuietLogsTest {
    @Test
    void shouldSilenceTheLoggerAndThoseUnderItUntilClosedThenGiveBackItsLevel() {
        Logger parent = (Logger) LoggerFactory.getLogger("io.rdmarepl.quiet");
        Logger child = (Logger) LoggerFactory.getLogger("io.rdmarepl.quiet.Child");
        Level before = parent.getLevel();

        try (QuietLogs quiet = QuietLogs.of("io.rdmarepl.quiet")) {
            assertThat(child.isErrorEnabled()).as("a logger under the silenced one").isFalse();
            assertThat(((Logger) LoggerFactory.getLogger("io.rdmarepl.other")).isErrorEnabled()).as("another logger").isTrue();
        }

        assertThat(parent.getLevel()).isEqualTo(before);
        assertThat(child.isErrorEnabled()).isTrue();
    }
}
