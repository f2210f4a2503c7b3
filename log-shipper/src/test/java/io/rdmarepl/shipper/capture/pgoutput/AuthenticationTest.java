package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AuthenticationTest {

    @Test
    void shouldHashMd5AsPostgresDoes() {
        // md5(md5hex("secret" + "postgres") + salt), computed independently with Python's hashlib
        assertThat(Authentication.md5("secret", "postgres", new byte[] {1, 2, 3, 4}))
            .isEqualTo("md5bb41a296aab6baccb36ff243a562abff");
    }

    @Test
    void shouldListTheSaslMechanismsTheServerOffers() {
        byte[] body = "SCRAM-SHA-256-PLUS\0SCRAM-SHA-256\0\0".getBytes(StandardCharsets.US_ASCII);

        assertThat(Authentication.mechanisms(body, 0, body.length)).containsExactly("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256");
    }
}
