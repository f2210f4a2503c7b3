package io.rdmarepl.testsupport;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresPairExtensionIT {
    @RegisterExtension
    static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);

    private static final AtomicLong FIRST_PRIMARY_PID = new AtomicLong();

    @Test
    void shouldShareOnePairInClassFirst() {
        assertSamePairAsOtherTests();
    }

    @Test
    void shouldShareOnePairInClassSecond() {
        assertSamePairAsOtherTests();
    }

    private static void assertSamePairAsOtherTests() {
        FIRST_PRIMARY_PID.compareAndSet(0, POSTGRES.primary().pid());
        assertThat(POSTGRES.primary().pid()).isEqualTo(FIRST_PRIMARY_PID.get());
        assertThat(POSTGRES.replica().port()).isNotEqualTo(POSTGRES.primary().port());
        assertThat(POSTGRES.pair().durability()).isEqualTo(Durability.FAST);
    }
}
