package io.rdmarepl.channel.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.channel.ChannelException;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.channel.RingSettings;
import io.rdmarepl.channel.Transports;
import io.rdmarepl.channel.ring.RingReader;
import io.rdmarepl.channel.ring.RingWriter;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The verbs transport's failures over the software provider: each one clear, none a hang. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class VerbsTransportErrorTest {

    @Test
    void shouldRefuseAWriterThatDoesNotKnowTheSecret() {
        try (VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(4096, 1)) {
            new RingReader(readerEnd);
            ChannelSecurity wrong = ChannelSecurity.ofText("another-secret-0123456789");
            assertThatThrownBy(() -> VerbsWriterEnd.connect(ChannelUri.parse(readerEnd.uri()), wrong, SoftRdmaChannels.FAST))
                    .isInstanceOf(ChannelException.class)
                    .hasMessageContaining(readerEnd.uri())
                    .hasMessageContaining("refused this shipper")
                    .hasMessageContaining("secrets differ");
            assertThat(readerEnd.refusedWriters()).isEqualTo(1);
            assertThat(readerEnd.hasWriter()).isFalse();
        }
    }

    @Test
    void shouldNameTheStandbyWhenNothingListens() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ChannelUri uri = ChannelUri.parse("softrdma://127.0.0.1:" + port);
        long startNs = System.nanoTime();
        assertThatThrownBy(() -> VerbsWriterEnd.connect(uri, SoftRdmaChannels.SECRET, SoftRdmaChannels.FAST.withConnectTimeoutMs(500)))
                .isInstanceOf(ChannelException.class)
                .hasMessageContaining("cannot connect to standby " + uri + " within 500 ms")
                .hasMessageContaining("nothing accepts connections")
                .hasMessageContaining("emulation");
        assertThat(System.nanoTime() - startNs).isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void shouldRequireTheSharedSecretForNetworkTransports() {
        ChannelUri uri = ChannelUri.parse("softrdma://127.0.0.1:0");
        assertThatThrownBy(() -> Transports.openReader(uri, new RingSettings(4096, 1, 1, true)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs the cluster's shared secret")
                .hasMessageContaining(ChannelSecurity.SECRET_ENV);
        assertThatThrownBy(() -> Transports.openWriter(uri))
                .hasMessageContaining("needs the cluster's shared secret");
        assertThat(ChannelSecurity.ofText("very-secret-words-here").toString()).doesNotContain("secret-words");
    }

    @Test
    void shouldFailTheWriterClearlyWhenTheStandbyGoesAway() {
        VerbsReaderEnd readerEnd = SoftRdmaChannels.reader(4096, 1);
        new RingReader(readerEnd);
        try (VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(readerEnd)) {
            RingWriter writer = new RingWriter(writerEnd);
            readerEnd.close();
            ByteBuffer payload = ByteBuffer.allocate(64);
            assertThatThrownBy(() -> {
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (System.nanoTime() < deadlineNs) {
                    writer.tryWrite(4, payload, 0, 64);
                    writer.publish();
                }
            }).isInstanceOf(ChannelException.class).hasMessageContaining(writerEnd.uri());
            assertThat(writerEnd.failure()).isNotNull();
        }
    }

    @Test
    void shouldReconnectToARestartedStandbyWithANewRkeyAndFenceTheOldEpoch() {
        VerbsReaderEnd first = SoftRdmaChannels.reader(4096, 1);
        ChannelUri uri = ChannelUri.parse(first.uri());
        new RingReader(first);
        int firstRkey;
        try (VerbsWriterEnd writerEnd = SoftRdmaChannels.writer(first)) {
            firstRkey = writerEnd.ringRkey();
            first.close();
        }
        try (VerbsReaderEnd restarted = VerbsReaderEnd.listen(uri, new RingSettings(4096, 2, 77L, true),
                SoftRdmaChannels.SECRET, SoftRdmaChannels.FAST)) {
            RingReader reader = new RingReader(restarted);
            try (VerbsWriterEnd writerEnd = VerbsWriterEnd.connect(uri, SoftRdmaChannels.SECRET, SoftRdmaChannels.FAST)) {
                assertThat(writerEnd.ringRkey()).isNotEqualTo(firstRkey);
                RingWriter writer = new RingWriter(writerEnd);
                assertThat(writer.epoch()).isEqualTo(2);
                assertThat(writer.tryWrite(4, ByteBuffer.allocate(8), 0, 8)).isTrue();
                writer.publish();
                long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int read = 0;
                while (read == 0 && System.nanoTime() < deadlineNs) {
                    read = reader.poll((t, f, b, o, l) -> { }, 10);
                }
                assertThat(read).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldExplainWhatTheNativeProviderMissesOnThisHost() {
        assertThat(NativeVerbsCheck.problems()).isNotEmpty();
        assertThatThrownBy(() -> Transports.openReader(ChannelUri.parse("rdma://127.0.0.1:0"), new RingSettings(4096, 1, 1, true),
                SoftRdmaChannels.SECRET))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rdma:// (DiSNI native verbs) cannot run on this host")
                .hasMessageContaining("libdisni is not on java.library.path")
                .hasMessageContaining("/dev/infiniband/uverbs")
                .hasMessageContaining("softrdma://");
    }
}
