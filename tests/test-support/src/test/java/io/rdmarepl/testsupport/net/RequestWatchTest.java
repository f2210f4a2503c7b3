package io.rdmarepl.testsupport.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The time left on an element, as {@code nft list set} prints it, read to the millisecond. */
class RequestWatchTest {
    @Test
    void shouldReadNftDurationsToTheMillisecond() {
        assertThat(RequestWatch.durationMs("59m58s472ms")).isEqualTo(3_598_472);
        assertThat(RequestWatch.durationMs("1h")).isEqualTo(3_600_000);
        assertThat(RequestWatch.durationMs("9s")).isEqualTo(9_000);
        assertThat(RequestWatch.durationMs("1d2h")).isEqualTo(93_600_000);
        assertThat(RequestWatch.durationMs("996ms")).isEqualTo(996);
    }
}
