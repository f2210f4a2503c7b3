package io.rdmarepl.shipper.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.config.ConfigException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The settings a shipper hands the lease guard it starts, on the guard's standard input. */
class GuardSettingsTest {

    @Test
    void shouldReadWhatTheShipperWrote() throws Exception {
        GuardSettings written = new GuardSettings(Path.of("/dev/shm/rdmarepl-lease-a"), "pg-a:5432/postgres",
                "jdbc:postgresql://pg-a:5432/postgres?sslmode=prefer", "postgres", "s3cret");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        written.write(out);
        assertThat(GuardSettings.read(new ByteArrayInputStream(out.toByteArray()))).isEqualTo(written);
    }

    @Test
    void shouldNameEveryMissingAndUnknownSettingButNeverThePassword() {
        String input = "file=/dev/shm/rdmarepl-lease-a\npassword=s3cret\nprimery=pg-a:5432/postgres\n";
        assertThatThrownBy(() -> GuardSettings.read(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "primary=: must not be empty", "jdbc.url=: must not be empty", "user=: must not be empty",
                        "primery: unknown key (did you mean primary?)"))
                .hasMessageStartingWith("the lease guard's settings on standard input (written by rdmarepl ship;")
                .hasMessageNotContaining("s3cret");
    }
}
