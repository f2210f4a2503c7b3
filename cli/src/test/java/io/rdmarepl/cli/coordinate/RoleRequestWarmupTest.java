package io.rdmarepl.cli.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RoleRequestWarmupTest {

    @Test
    void shouldGetAnAnswerToEveryRequestOverTheRealTransport() {
        // every route a failover asks (and /status) answers 200 with JSON: one that does not stops the warm-up early
        assertThat(RoleRequestWarmup.run(12)).startsWith("warmed the requests to the roles with 12 loopback requests in ");
    }
}
