package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ServerErrorTest {

    @Test
    void shouldKeepSeveritySqlStateMessageDetailAndHint() {
        byte[] body = fields("SFATAL", "VFATAL", "C28P01", "Mpassword authentication failed for user \"md5user\"",
            "Dthe detail", "Hthe hint", "Fauth.c", "L329", "Rauth_failed");

        ServerError error = ServerError.parse(body, 0, body.length);

        assertThat(error.severity()).isEqualTo("FATAL");
        assertThat(error.sqlState()).isEqualTo("28P01");
        assertThat(error.isAuthorizationFailure()).isTrue();
        assertThat(error.describe()).isEqualTo(
            "FATAL 28P01 password authentication failed for user \"md5user\" (detail: the detail; hint: the hint)");
    }

    @Test
    void shouldPreferTheUntranslatedSeverity() {
        byte[] body = fields("SFEHLER", "VERROR", "C55006", "MReplikations-Slot ist aktiv");

        ServerError error = ServerError.parse(body, 0, body.length);

        assertThat(error.severity()).isEqualTo("ERROR");
        assertThat(error.isAuthorizationFailure()).isFalse();
        assertThat(error.describe()).isEqualTo("ERROR 55006 Replikations-Slot ist aktiv");
    }

    private static byte[] fields(String... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String field : fields) {
            out.writeBytes(field.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        out.write(0);
        return out.toByteArray();
    }
}
