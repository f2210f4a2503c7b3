package io.rdmarepl.testsupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DurableServerIT {
    @Test
    void shouldFlushWhenDurable() {
        try (PostgresServer server = PostgresServer.primary(Durability.DURABLE)) {
            assertThat(server.durability()).isEqualTo(Durability.DURABLE);
            assertThat(server.show("fsync")).isEqualTo("on");
            assertThat(server.show("synchronous_commit")).isEqualTo("on");
            assertThat(server.show("full_page_writes")).isEqualTo("on");
            assertThat(server.toString()).contains("DURABLE (fsync=on, synchronous_commit=on, full_page_writes=on)");
        }
    }
}
