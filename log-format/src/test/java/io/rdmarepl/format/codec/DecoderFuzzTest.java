package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.Generators;
import io.rdmarepl.format.RecordKind;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import io.rdmarepl.format.record.RecordMaterializer;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Garbage, truncations and single-byte corruptions reach the decoder: it either decodes (and every value
 * can be materialised) or throws {@link FormatException}; never IndexOutOfBounds, NegativeArraySize,
 * OutOfMemory or a hang.
 */
class DecoderFuzzTest {
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer scratch = ByteBuffer.allocate(1 << 20);

    @Property(tries = 3000)
    void shouldOnlyThrowFormatExceptionOnGarbage(@ForAll @Size(max = 300) byte[] garbage, @ForAll boolean validHeader) {
        if (validHeader && garbage.length >= RecordDescriptor.HEADER_LENGTH) {
            garbage[0] = RecordDescriptor.VERSION;
            garbage[1] = (byte) (1 + Math.floorMod(garbage[1], RecordKind.values().length));
            int body = garbage.length - RecordDescriptor.HEADER_LENGTH;
            ByteBuffer.wrap(garbage).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(4, body);
        }
        try {
            decodeFully(ByteBuffer.wrap(garbage), 0, garbage.length);
        } catch (FormatException expected) {
            // the only acceptable failure
        }
    }

    @Property(tries = 2000)
    void shouldRejectEveryTruncation(@ForAll("records") ChangeRecord record, @ForAll("fractions") double cut) {
        int length = ChangeRecords.encode(encoder, record, scratch, 0, scratch.capacity());
        int truncated = (int) (cut * length);
        ByteBuffer copy = ByteBuffer.wrap(Arrays.copyOf(scratch.array(), truncated));
        assertThatThrownBy(() -> decodeFully(copy, 0, truncated)).isInstanceOf(FormatException.class);
    }

    @Property(tries = 4000)
    void shouldSurviveSingleByteCorruption(@ForAll("records") ChangeRecord record, @ForAll("fractions") double where,
                                           @ForAll byte replacement) {
        int length = ChangeRecords.encode(encoder, record, scratch, 0, scratch.capacity());
        byte[] bytes = Arrays.copyOf(scratch.array(), length);
        bytes[(int) (where * length)] = replacement;
        try {
            decodeFully(ByteBuffer.wrap(bytes), 0, length);
        } catch (FormatException expected) {
            // the only acceptable failure
        }
    }

    @Property(tries = 1000)
    void shouldSurviveCorruptionOfLengthFields(@ForAll("records") ChangeRecord record, @ForAll("fractions") double where,
                                               @ForAll("evilInts") int replacement) {
        int length = ChangeRecords.encode(encoder, record, scratch, 0, scratch.capacity());
        byte[] bytes = Arrays.copyOf(scratch.array(), length);
        int at = Math.min((int) (where * length), length - Integer.BYTES);
        ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(at, replacement);
        try {
            decodeFully(ByteBuffer.wrap(bytes), 0, length);
        } catch (FormatException expected) {
            // the only acceptable failure
        }
    }

    @Provide
    Arbitrary<ChangeRecord> records() {
        return Generators.smallRecords();
    }

    @Provide
    Arbitrary<Double> fractions() {
        return Arbitraries.doubles().between(0, true, 1, false);
    }

    @Provide
    Arbitrary<Integer> evilInts() {
        return Arbitraries.oneOf(Arbitraries.of(-1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, 1 << 30, 0x7FFF_FFF0, 65535),
            Arbitraries.integers());
    }

    /** Decodes and touches every value, as the applier would. */
    private void decodeFully(ByteBuffer buffer, int offset, int length) {
        try {
            decoder.decode(buffer, offset, length, new RecordMaterializer());
        } catch (FormatException expected) {
            throw expected;
        } catch (RuntimeException | Error unexpected) {
            throw new AssertionError("decoder threw " + unexpected + " instead of FormatException on "
                + java.util.HexFormat.of().formatHex(buffer.array(), offset, offset + Math.min(length, 512)), unexpected);
        }
    }
}
