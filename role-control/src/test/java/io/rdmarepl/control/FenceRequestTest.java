package io.rdmarepl.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FenceRequestTest {
    @Test
    void shouldWriteTheReasonFieldEscaped() {
        assertThat(new FenceRequest("a \"quoted\" member rejoins").toJson())
                .isEqualTo("{\"reason\":\"a \\\"quoted\\\" member rejoins\"}");
    }

    @Test
    void shouldReadWhatItWrites() {
        assertThat(FenceRequest.parse(new FenceRequest("fenced by the coordinator").toJson()))
                .isEqualTo(new FenceRequest("fenced by the coordinator"));
    }

    @Test
    void shouldTakeAnyTextAsTheReasonAndNoBodyAsNone() {
        assertThat(FenceRequest.parse("  maintenance window \n").reason()).isEqualTo("maintenance window");
        assertThat(FenceRequest.parse("{\"reason\": 7}").reason()).isEqualTo("{\"reason\": 7}");
        assertThat(FenceRequest.parse("").reason()).isEmpty();
        assertThat(FenceRequest.parse(null).reason()).isEmpty();
    }
}
