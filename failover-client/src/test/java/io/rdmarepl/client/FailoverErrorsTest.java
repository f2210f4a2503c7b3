package io.rdmarepl.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.sql.SQLException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class FailoverErrorsTest {
    @ParameterizedTest
    @ValueSource(strings = {"25006", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "08P01"})
    void shouldTreatAsFailoverWhenTheServerIsNoLongerPrimaryOrGone(final String sqlState) {
        assertThat(FailoverDataSource.isFailoverError(new SQLException("x", sqlState))).isTrue();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"23505", "42601", "40001", "40P01", "57014", "28P01", "3D000"})
    void shouldLeaveOtherErrorsToTheCaller(final String sqlState) {
        assertThat(FailoverDataSource.isFailoverError(new SQLException("x", sqlState))).isFalse();
    }

    @Test
    void shouldFindAFailoverErrorInTheCause() {
        final SQLException wrapped = new SQLException("pool timeout", (String) null,
            new SQLException("Connection refused", "08001", new IOException("refused")));

        assertThat(FailoverDataSource.isFailoverError(wrapped)).isTrue();
    }

    @Test
    void shouldFindAFailoverErrorInTheNextException() {
        final SQLException batch = new SQLException("batch entry 3 failed", "XX000");
        batch.setNextException(new SQLException("terminating connection due to administrator command", "57P01"));

        assertThat(FailoverDataSource.isFailoverError(batch)).isTrue();
    }

    @Test
    void shouldStopOnACyclicChain() {
        final SQLException first = new SQLException("a", "42000");
        final SQLException second = new SQLException("b", "42000", first);
        first.setNextException(second);

        assertThat(FailoverDataSource.isFailoverError(first)).isFalse();
    }
}
