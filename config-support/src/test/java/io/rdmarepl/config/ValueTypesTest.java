package io.rdmarepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

    @Test
    void shouldReadWholeNumbersWithinTheirRangeOnly() {
        ValueType<Long> type = ValueTypes.wholeNumber(1, 100_000);
        assertThat(type.parse("100_000")).isEqualTo(100_000L);
        assertThatThrownBy(() -> type.parse("0")).hasMessage("must be between 1 and 100000");
        assertThatThrownBy(() -> type.parse("1.5")).hasMessage("must be a whole number between 1 and 100000");
        assertThat(type.check(100_001L)).isEqualTo("must be between 1 and 100000");
        assertThat(type.values()).isEqualTo("1..100000");
        ValueType<Integer> integer = ValueTypes.integer(1, Integer.MAX_VALUE);
        assertThatThrownBy(() -> integer.parse("3000000000")).hasMessage("must be between 1 and 2147483647");
        assertThat(integer.check(0)).isEqualTo("must be between 1 and 2147483647");
    }

    @Test
    void shouldReadPowersOfTwoWithinTheirRangeOnly() {
        ValueType<Integer> type = ValueTypes.powerOfTwo(64, 1 << 24);
        assertThat(type.parse("16384")).isEqualTo(16384);
        for (String bad : new String[] {"1000", "32", "33554432", "many"}) {
            assertThatThrownBy(() -> type.parse(bad)).as(bad).hasMessage("must be a power of two between 64 and 16777216");
        }
    }

    @Test
    void shouldReadWordsInAnyCaseAndAnswerTheWordAsDeclared() {
        assertThat(ValueTypes.bool().parse("TRUE")).isTrue();
        assertThatThrownBy(() -> ValueTypes.bool().parse("yes")).hasMessage("must be true or false");
        ValueType<String> isolation = ValueTypes.oneOf("TRANSACTION_READ_COMMITTED", "TRANSACTION_SERIALIZABLE");
        assertThat(isolation.parse("transaction_serializable")).isEqualTo("TRANSACTION_SERIALIZABLE");
        assertThatThrownBy(() -> isolation.parse("serializable"))
                .hasMessage("must be one of TRANSACTION_READ_COMMITTED, TRANSACTION_SERIALIZABLE");
        ValueType<Thread.State> state = ValueTypes.choice(new Thread.State[] {Thread.State.NEW, Thread.State.RUNNABLE},
                s -> s.name().toLowerCase(java.util.Locale.ROOT));
        assertThat(state.parse("Runnable")).isEqualTo(Thread.State.RUNNABLE);
        assertThat(state.show(Thread.State.NEW)).isEqualTo("new");
        assertThatThrownBy(() -> state.parse("blocked")).hasMessage("must be one of new, runnable");
    }

    @Test
    void shouldReadListsAddressesAndMilliseconds() {
        assertThat(ValueTypes.list().parse(" a, ,b ,")).containsExactly("a", "b");
        InetSocketAddress address = ValueTypes.hostPort().parse("127.0.0.1:7480");
        assertThat(address.getPort()).isEqualTo(7480);
        for (String bad : new String[] {"7480", ":7480", "host:70000", "host:port"}) {
            assertThatThrownBy(() -> ValueTypes.hostPort().parse(bad)).as(bad).hasMessage("must be host:port with port 0..65535");
        }
        ValueType<Duration> ms = ValueTypes.milliseconds().where(d -> !d.isNegative(), "must not be negative");
        assertThat(ms.parse("500 ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(ms.parse("1_500")).isEqualTo(Duration.ofMillis(1500));
        assertThat(ms.show(Duration.ofSeconds(2))).isEqualTo("2000 ms");
        assertThat(ms.check(Duration.ofMillis(-1))).isEqualTo("must not be negative");
        assertThat(ms.check(null)).as("null breaks the first rule").isEqualTo("must not be negative");
        assertThatThrownBy(() -> ms.parse("2s")).hasMessage("must be a whole number of milliseconds");
    }

    @Test
    void shouldTellAKeyWhoseDefaultBreaksItsRulesFromOneWithADefault() {
        ConfigKey<String> uri = ConfigKey.key("standby.<name>.uri", ValueTypes.nonEmptyText(), "", "ring");
        assertThat(uri.required()).isTrue();
        assertThat(uri.defaultValue()).isNull();
        assertThat(uri.named("b").name()).isEqualTo("standby.b.uri");
        assertThat(ExampleKeys.GROUP_MAX_MS.required()).isFalse();
        assertThat(ExampleKeys.GROUP_MAX_MS.defaultValue()).isEqualTo(20L);
        assertThatThrownBy(() -> ConfigKeys.of("twice", null, ExampleKeys.READ_ONLY, ExampleKeys.READ_ONLY))
                .hasMessage("twice lists replica.read.only twice");
    }
}
