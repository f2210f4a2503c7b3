package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 4013 section 3's examples, and PostgreSQL's rule that a refused password is used as it is. */
class SaslPrepTest {

    @Test
    void shouldFollowTheRfc4013Examples() {
        assertThat(SaslPrep.prepare("I\u00ADX")).as("soft hyphen mapped to nothing").isEqualTo("IX");
        assertThat(SaslPrep.prepare("user")).isEqualTo("user");
        assertThat(SaslPrep.prepare("USER")).as("case preserved").isEqualTo("USER");
        assertThat(SaslPrep.prepare("\u00AA")).as("NFKC").isEqualTo("a");
        assertThat(SaslPrep.prepare("\u2168")).as("NFKC").isEqualTo("IX");
        assertThat(SaslPrep.prepare("\u0627\u0031")).as("bidi: RandALCat must end the string").isNull();
    }

    @Test
    void shouldKeepAsciiAsItIsEvenWithControlCharactersAsPostgresDoes() {
        assertThat(SaslPrep.prepare("a\u0007b")).isEqualTo("a\u0007b");
    }

    @Test
    void shouldComposeDecomposedCharactersAndMapNonAsciiSpaces() {
        assertThat(SaslPrep.prepare("pa\u0308sse")).isEqualTo("p\u00E4sse");
        assertThat(SaslPrep.prepare("a\u00A0b\u3000c")).isEqualTo("a b c");
    }

    @Test
    void shouldUseAProhibitedPasswordUnchanged() {
        String privateUse = "caf\u00E9\uE000";
        assertThat(SaslPrep.prepare(privateUse)).isNull();
        assertThat(SaslPrep.prepareOrKeep(privateUse)).isEqualTo(privateUse);
    }
}
