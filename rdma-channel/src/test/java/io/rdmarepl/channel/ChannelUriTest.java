package io.rdmarepl.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ChannelUriTest {
    @Test
    void shouldParseEachTransport() {
        assertThat(ChannelUri.parse("shm:///dev/shm/standby-a").path()).isEqualTo(Path.of("/dev/shm/standby-a"));
        ChannelUri rdma = ChannelUri.parse("rdma://10.0.0.2:7471");
        assertThat(rdma.transport()).isEqualTo(ChannelUri.Transport.RDMA);
        assertThat(rdma.host()).isEqualTo("10.0.0.2");
        assertThat(rdma.port()).isEqualTo(7471);
        assertThat(ChannelUri.parse("softrdma://localhost:7000").transport()).isEqualTo(ChannelUri.Transport.SOFTRDMA);
        assertThat(ChannelUri.parse("rdma://[fe80::1]:7471").host()).isEqualTo("fe80::1");
    }

    @Test
    void shouldNameWhatIsWrong() {
        assertThatThrownBy(() -> ChannelUri.parse("tcp://x:1")).hasMessageContaining("unknown scheme 'tcp'");
        assertThatThrownBy(() -> ChannelUri.parse("rdma://host")).hasMessageContaining("must name host and port");
        assertThatThrownBy(() -> ChannelUri.parse("shm:///dev/shm/")).hasMessageContaining("must name a file");
        assertThatThrownBy(() -> ChannelUri.parse("shm:// bad")).hasMessageContaining("malformed channel URI");
        assertThatThrownBy(() -> ChannelUri.parse("rdma://h:99999")).hasMessageContaining("0..65535");
        assertThatThrownBy(() -> ChannelUri.parse("rdma://h:7000/x")).hasMessageContaining("must be just rdma://host:port");
        assertThatThrownBy(() -> ChannelUri.parse("shm:///dev/shm/a?b")).hasMessageContaining("must name a file");
    }

    @Test
    void shouldRejectCapacityThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new RingSettings(5000, 1, 1, true))
                .hasMessageContaining("power of two").hasMessageContaining("5000");
    }
}
