package io.rdmarepl.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EpochRequestTest {
    @Test
    void shouldWriteTheBodyTheRolesHaveAlwaysRead() {
        assertThat(new EpochRequest(7).toJson()).isEqualTo("{\"epoch\":7}");
    }

    @Test
    void shouldReadWhatItWrites() {
        assertThat(EpochRequest.parse(new EpochRequest(12).toJson())).isEqualTo(new EpochRequest(12));
    }

    @Test
    void shouldTakeAnEmptyBodyOrANullEpochAsNoEpoch() {
        assertThat(EpochRequest.parse("").epoch()).isNull();
        assertThat(EpochRequest.parse(null).epoch()).isNull();
        assertThat(EpochRequest.parse("{}").epoch()).isNull();
        assertThat(EpochRequest.parse("{\"epoch\": null}").epoch()).isNull();
    }

    @Test
    void shouldIgnoreFieldsItDoesNotKnow() {
        assertThat(EpochRequest.parse("{\"epoch\": 3, \"by\": \"coordinator-2\"}").epoch()).isEqualTo(3);
    }

    @Test
    void shouldRejectAnEpochThatIsNotAPositiveInteger() {
        for (String bad : new String[] {"{\"epoch\": 0}", "{\"epoch\": -1}", "{\"epoch\": \"7\"}", "{\"epoch\": 7.5}",
                "{\"epoch\": 99999999999}"}) {
            assertThatThrownBy(() -> EpochRequest.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("epoch must be a positive integer, got ");
        }
    }

    @Test
    void shouldRejectABodyThatIsNotAJsonObject() {
        for (String bad : new String[] {"7", "[7]", "epoch=7", "{\"epoch\": "}) {
            assertThatThrownBy(() -> EpochRequest.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("JSON object like {\"epoch\": 7}");
        }
    }
}
