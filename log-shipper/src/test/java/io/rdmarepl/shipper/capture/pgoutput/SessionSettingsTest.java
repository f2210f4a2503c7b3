package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

    @Test
    void shouldSendTheFixedSettingsAsOptions() {
        assertThat(SessionSettings.options(SessionSettings.FIXED)).isEqualTo(
            "-c DateStyle=ISO -c IntervalStyle=postgres -c extra_float_digits=3 -c bytea_output=hex -c TimeZone=UTC");
    }

    @Test
    void shouldEscapeWhiteSpaceAndBackslashesAsPgSplitOptsReadsThem() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("DateStyle", "ISO, MDY");
        settings.put("search_path", "a\\b\tc");

        assertThat(SessionSettings.options(settings)).isEqualTo("-c DateStyle=ISO,\\ MDY -c search_path=a\\\\b\\\tc");
    }
}
