package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicationCommandsTest {

    @Test
    void shouldQuoteTheSlotTheOptionNamesAndTheirValues() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("proto_version", "4");
        options.put("publication_names", ReplicationCommands.publicationNames(List.of("orders", "it's \"new\"")));
        options.put("messages", "true");

        assertThat(ReplicationCommands.startLogical("rdmarepl_1", 0x16_B374_D848L, options)).isEqualTo(
            "START_REPLICATION SLOT \"rdmarepl_1\" LOGICAL 16/B374D848 (\"proto_version\" '4', "
                + "\"publication_names\" '\"orders\",\"it''s \"\"new\"\"\"', \"messages\" 'true')");
    }

    @Test
    void shouldWriteNoOptionListWhenThereAreNoOptions() {
        assertThat(ReplicationCommands.startLogical("s", 0, Map.of())).isEqualTo("START_REPLICATION SLOT \"s\" LOGICAL 0/0");
    }

    @Test
    void shouldRefuseSlotNamesPostgresRefuses() {
        assertThatThrownBy(() -> ReplicationCommands.startLogical("Upper", 0, Map.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'Upper'");
        assertThatThrownBy(() -> ReplicationCommands.startLogical("a\"; DROP", 0, Map.of()))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplicationCommands.quoteLiteral("a\0b")).isInstanceOf(IllegalArgumentException.class);
    }
}
