package io.rdmarepl.shipper.capture.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The status update frame, byte for byte, and the rule that positions never move back. */
class StandbyStatusTest {
    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final StandbyStatus status = new StandbyStatus(new FrontendWriter(wire), System.nanoTime());

    @Test
    void shouldWriteOneCopyDataHoldingAStatusUpdate() throws IOException {
        long beforeUs = CopyDataDescriptor.nowPostgresUs();
        assertThat(status.send(0x30L, 0x20L, 0x10L, true, false)).isTrue();

        ByteBuffer frame = ByteBuffer.wrap(wire.toByteArray());
        assertThat(frame.remaining()).isEqualTo(39);
        assertThat(frame.get(0)).isEqualTo((byte) 'd');
        assertThat(frame.getInt(1)).isEqualTo(38);
        assertThat(frame.get(5)).isEqualTo((byte) 'r');
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_WRITTEN_OFFSET)).isEqualTo(0x30L);
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_FLUSHED_OFFSET)).isEqualTo(0x20L);
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_APPLIED_OFFSET)).isEqualTo(0x10L);
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_CLOCK_OFFSET))
            .isBetween(beforeUs, CopyDataDescriptor.nowPostgresUs());
        assertThat(frame.get(5 + CopyDataDescriptor.STATUS_REPLY_REQUESTED_OFFSET)).isEqualTo((byte) 1);
    }

    @Test
    void shouldNeverSendALowerPositionThanBefore() throws IOException {
        status.send(100, 100, 100, false, false);
        wire.reset();

        assertThat(status.send(50, 200, 90, false, false)).isTrue();

        ByteBuffer frame = ByteBuffer.wrap(wire.toByteArray());
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_WRITTEN_OFFSET)).isEqualTo(100);
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_FLUSHED_OFFSET)).isEqualTo(200);
        assertThat(frame.getLong(5 + CopyDataDescriptor.STATUS_APPLIED_OFFSET)).isEqualTo(100);
        assertThat(frame.get(5 + CopyDataDescriptor.STATUS_REPLY_REQUESTED_OFFSET)).isZero();
        assertThat(status.flushed()).isEqualTo(200);
    }

    @Test
    void shouldCompareLsnsUnsigned() throws IOException {
        status.send(0x8000_0000_0000_0000L, 0x8000_0000_0000_0000L, 0, false, false);

        status.send(0x7FFF_FFFF_FFFF_FFFFL, 0x7FFF_FFFF_FFFF_FFFFL, 0, false, false);

        assertThat(status.flushed()).isEqualTo(0x8000_0000_0000_0000L);
    }

    @Test
    void shouldSendNothingWhenNothingMovedUnlessAskedTo() throws IOException {
        status.send(100, 100, 100, false, false);
        wire.reset();

        assertThat(status.send(100, 90, 100, false, false)).isFalse();
        assertThat(wire.size()).isZero();
        assertThat(status.send(100, 100, 100, true, false)).as("reply requested").isTrue();
        status.resend(false);
        assertThat(wire.size()).isEqualTo(2 * StandbyStatus.FRAME_LENGTH);
        assertThat(status.sentCount()).isEqualTo(3);
    }
}
