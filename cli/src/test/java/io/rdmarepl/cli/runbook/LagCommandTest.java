package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LagCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private CannedCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        coordinator = new CannedCoordinator().answer("GET /status", 200, Answers.STATUS);
    }

    @AfterEach
    void stop() {
        coordinator.close();
    }

    @Test
    void shouldPrintEachMembersPositionsAndLagAligned() {
        Run run = Run.of("lag", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualToNormalizingNewlines("""
                NAME  ROLE     APPLIED LSN  DURABLE LSN  LAG BYTES  LAG MS
                pga   PRIMARY  -            -            -          -
                pgb   STANDBY  0/3000100    0/30000C8    72         3
                pgc   STANDBY  -            -            -          -
                """);
    }

    @Test
    void shouldPrintOnlyTheLagFieldsWithJsonAndNullWhereThereIsNoApplier() throws Exception {
        Run run = Run.of("lag", "--json", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree("""
                {"members":[
                 {"name":"pga","role":"PRIMARY","applied_lsn":null,"durable_lsn":null,"lag_bytes":null,"lag_ms":null},
                 {"name":"pgb","role":"STANDBY","applied_lsn":"0/3000100","durable_lsn":"0/30000C8","lag_bytes":72,"lag_ms":3},
                 {"name":"pgc","role":"STANDBY","applied_lsn":null,"durable_lsn":null,"lag_bytes":null,"lag_ms":null}]}
                """));
    }

    @Test
    void shouldExitWith3WhenNothingListens() throws Exception {
        Run run = Run.of("lag", "--coordinator", CannedCoordinator.closedPortUrl());

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).startsWith("rdmarepl lag: cannot reach the coordinator at http://127.0.0.1:");
    }
}
