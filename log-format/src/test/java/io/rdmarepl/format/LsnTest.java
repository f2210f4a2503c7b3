package io.rdmarepl.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** LSN text form and unsigned order, as PostgreSQL prints and compares them. */
class LsnTest {
    @Test
    void shouldParseAndFormatPostgresTextForm() {
        assertThat(Lsn.parse("16/B374D848")).isEqualTo(0x16_B374_D848L);
        assertThat(Lsn.format(0x16_B374_D848L)).isEqualTo("16/B374D848");
        assertThat(Lsn.format(0)).isEqualTo("0/0");
        assertThat(Lsn.format(-1)).isEqualTo("FFFFFFFF/FFFFFFFF");
        assertThat(Lsn.parse("0/1a")).isEqualTo(0x1A);
        assertThat(Lsn.valueOf("1/0").toString()).isEqualTo("1/0");
    }

    @Test
    void shouldRejectMalformedText() {
        assertThatThrownBy(() -> Lsn.parse("16B374D848")).hasMessageContaining("no '/'");
        assertThatThrownBy(() -> Lsn.parse("/1")).hasMessageContaining("1 to 8 hex digits");
        assertThatThrownBy(() -> Lsn.parse("123456789/1")).hasMessageContaining("1 to 8 hex digits");
        assertThatThrownBy(() -> Lsn.parse("1/G")).hasMessageContaining("non-hex character at index 2");
    }

    @Test
    void shouldCompareUnsigned() {
        assertThat(Lsn.compare(0x8000_0000_0000_0000L, 1)).isPositive();
        assertThat(new Lsn(-1).compareTo(new Lsn(0))).isPositive();
        assertThat(Lsn.max(-1, 5)).isEqualTo(-1);
    }

    @Property
    void shouldRoundTripAnyLsn(@ForAll long lsn) {
        assertThat(Lsn.parse(Lsn.format(lsn))).isEqualTo(lsn);
        assertThat(Lsn.appendTo(lsn, new StringBuilder("x")).toString()).isEqualTo("x" + Lsn.format(lsn));
    }
}
