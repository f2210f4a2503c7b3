package io.rdmarepl.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.Generators;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** inet/cidr/macaddr/uuid text forms, as Debezium hands them to the shipper, become exact binary values. */
class NetworkTextTest {
    private final RecordEncoder encoder = new RecordEncoder();
    private final RecordDecoder decoder = new RecordDecoder();
    private final ByteBuffer buffer = ByteBuffer.allocate(1024);

    @Test
    void shouldParseInetTextForms() {
        assertThat(inet("192.168.1.5/24")).isEqualTo(new Value.Inet(false, bytes(192, 168, 1, 5), 24));
        assertThat(inet("10.0.0.1")).isEqualTo(new Value.Inet(false, bytes(10, 0, 0, 1), 32));
        assertThat(inet("::1")).isEqualTo(new Value.Inet(false, v6(15, 1), 128));
        assertThat(inet("2001:db8::/32")).isEqualTo(new Value.Inet(false, v6(0, 0x20, 1, 1, 2, 0x0d, 3, 0xb8), 32));
        assertThat(inet("::ffff:1.2.3.4")).isEqualTo(new Value.Inet(false, v6(10, 0xff, 11, 0xff, 12, 1, 13, 2, 14, 3, 15, 4), 128));
        assertThat(inet("::")).isEqualTo(new Value.Inet(false, new byte[16], 128));
    }

    @Test
    void shouldRejectBadInetText() {
        for (String bad : new String[] {"1.2.3", "1.2.3.256", "1:2:3:4:5:6:7:8:9", "1::2::3", "1.2.3.4/33", ":1", "1:", "::/129"}) {
            assertThatThrownBy(() -> encoder.startInsert(buffer, 0, 1024, 1).putInet(bad))
                .as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Property(tries = 500)
    void shouldPrintInetThatParsesBackToTheSameValue(@ForAll @Size(16) byte[] address, @ForAll boolean v4,
                                                     @ForAll @IntRange(max = 128) int bits, @ForAll boolean cidr) {
        byte[] bytes = v4 ? Arrays.copyOf(address, 4) : address;
        int mask = Math.min(bits, bytes.length * 8);
        byte[] value = cidr ? Generators.network(bytes, mask) : bytes;
        StringBuilder text = NetworkText.appendInet(new StringBuilder(), value, value.length, mask, cidr);

        Value parsed = cidr ? cidr(text.toString()) : inet(text.toString());
        assertThat(parsed).as(text.toString()).isEqualTo(new Value.Inet(cidr, value, mask));
    }

    @Test
    void shouldParseMacAndUuidText() {
        int length = encoder.startInsert(buffer, 0, 1024, 1).putMacaddr("08:00:2b:01:02:03").putMacaddr8("08-00-2b-01-02-03-04-05")
            .putUuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").finish();
        ChangeRecord decoded = ChangeRecords.decode(decoder, buffer, 0, length);

        assertThat(decoded).isEqualTo(new ChangeRecord.Insert(1, Tuple.of(new Value.Macaddr(false, 0x08002B010203L),
            new Value.Macaddr(true, 0x08002B0102030405L),
            new Value.Uuid(0xa0eebc999c0b4ef8L, 0xbb6d6bb9bd380a11L))));
        assertThat(NetworkText.appendMac(new StringBuilder(), 0x08002B010203L, 6)).hasToString("08:00:2b:01:02:03");
        assertThatThrownBy(() -> NetworkText.parseMac("08:00:2b:01:02", 12)).isInstanceOf(IllegalArgumentException.class);
    }

    private Value inet(String text) {
        int length = encoder.startInsert(buffer, 0, 1024, 1).putInet(text).finish();
        return ((ChangeRecord.Insert) ChangeRecords.decode(decoder, buffer, 0, length)).newTuple().values().get(0);
    }

    private Value cidr(String text) {
        int length = encoder.startInsert(buffer, 0, 1024, 1).putCidr(text).finish();
        return ((ChangeRecord.Insert) ChangeRecords.decode(decoder, buffer, 0, length)).newTuple().values().get(0);
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    /** 16 zero bytes with (index, value) pairs set. */
    private static byte[] v6(int... pairs) {
        byte[] bytes = new byte[16];
        for (int i = 0; i < pairs.length; i += 2) {
            bytes[pairs[i]] = (byte) pairs[i + 1];
        }
        return bytes;
    }
}
