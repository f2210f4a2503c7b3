package io.rdmarepl.harness.bench.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.harness.bench.lag.Endpoint;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The copy bench's check of the replica's rows: the digest tells apart rows that differ in one value only. */
class PgbenchTablesIT {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldTellTablesApartThatDifferInOneValue() {
        try (PostgresServer server = PostgresServer.primary(Durability.FAST)) {
            Endpoint endpoint = Endpoint.of(server);
            for (String database : new String[] {"copy_a", "copy_b"}) {
                endpoint.execute("postgres", "CREATE DATABASE " + database);
                PgbenchTables.create(endpoint, database, 1);
            }
            assertThat(PgbenchTables.digest(endpoint, "copy_b")).isEqualTo(PgbenchTables.digest(endpoint, "copy_a"));

            endpoint.execute("copy_b", "UPDATE pgbench_accounts SET filler = 'x' WHERE aid = 77");
            assertThat(PgbenchTables.rows(endpoint, "copy_b")).as("the counts cannot see it")
                    .isEqualTo(PgbenchTables.rows(endpoint, "copy_a"));
            assertThat(PgbenchTables.digest(endpoint, "copy_b")).isNotEqualTo(PgbenchTables.digest(endpoint, "copy_a"));

            endpoint.execute("copy_b", "UPDATE pgbench_accounts SET filler = '' WHERE aid = 77;"
                    + " UPDATE pgbench_tellers SET tbalance = 1 WHERE tid = 3");
            assertThat(PgbenchTables.digest(endpoint, "copy_b")).isNotEqualTo(PgbenchTables.digest(endpoint, "copy_a"));
            endpoint.execute("copy_b", "UPDATE pgbench_tellers SET tbalance = 0 WHERE tid = 3");
            assertThat(PgbenchTables.digest(endpoint, "copy_b")).isEqualTo(PgbenchTables.digest(endpoint, "copy_a"));
        }
    }
}
