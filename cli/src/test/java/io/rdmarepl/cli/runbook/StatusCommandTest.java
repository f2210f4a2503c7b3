package io.rdmarepl.cli.runbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.cli.RdmareplCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatusCommandTest {
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
    void shouldPrintHeaderAlignedMembersAndLastDecisionForHumans() {
        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualToNormalizingNewlines("""
                cluster  main
                epoch    3
                phase    HEALTHY
                primary  pga
                leader   yes (coordinator coord-1)
                store    file /var/lib/rdmarepl/state.json

                NAME  ROLE     APPLIER                          LAG BYTES  LAG MS  HEARTBEAT MS  CANDIDATE
                pga   PRIMARY  -                                -          -       -             -
                pgb   STANDBY  applying                         72         3       9             yes
                pgc   STANDBY  unreachable: Connection refused  -          -       -             no: pgc's applier is unreachable (Connection refused)

                last decision: primary pga answers (wal 0/3000148) and ships heartbeats
                last failover: pga promoted at epoch 3 in 212 ms
                """);
    }

    @Test
    void shouldSayHowAnOldPrimaryWouldBeFenced() {
        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"last_error\":null",
                "\"last_error\":null,\"lease\":{\"shipper_lease_ms\":2000,\"fence_lease_ms\":2000,\"fence_command\":false}"));
        assertThat(Run.of("status", "--coordinator", coordinator.url()).out())
                .contains("fencing  lease 2000 ms, no fence.command: a primary SQL cannot fence is waited out until its lease ran out");

        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"last_error\":null",
                "\"last_error\":null,\"lease\":{\"shipper_lease_ms\":0,\"fence_lease_ms\":2000,\"fence_command\":false}"));
        assertThat(Run.of("status", "--coordinator", coordinator.url()).out())
                .contains("fencing  NO LEASE on the primary's shipper (fence.lease.ms=0), no fence.command: a failover SQL cannot fence is refused");

        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"last_error\":null",
                "\"last_error\":null,\"lease\":{\"shipper_lease_ms\":null,\"fence_lease_ms\":2000,\"fence_command\":true}"));
        assertThat(Run.of("status", "--coordinator", coordinator.url()).out())
                .contains("fencing  fence.command for a primary SQL cannot fence; lease 2000 ms assumed (the primary's shipper not heard yet)");
    }

    @Test
    void shouldPrintTheCoordinatorsDocumentUnchangedWithJson() throws Exception {
        Run run = Run.of("status", "--json", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out().lines().count()).isEqualTo(1);
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree(Answers.STATUS));
    }

    @Test
    void shouldSayAFollowerOnlyWatchesAndPrintTheLastError() {
        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"leader\":true", "\"leader\":false")
                .replace("\"last_error\":null", "\"last_error\":\"state store unreachable\""));

        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("leader   no (coordinator coord-1 only watches: send failover/promote/fence to the leader)")
                .endsWith("last error: state store unreachable" + System.lineSeparator());
    }

    @Test
    void shouldSayWhyAPausedApplierStopped() {
        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"applier\":\"applying\",",
                "\"applier\":\"paused-error\",\"applier_error\":\"apply paused at transaction 7 (commit LSN 0/3000100):"
                        + " UPDATE of \\\"public\\\".\\\"t\\\" found no row with key (\\\"id\\\")=(7) on the replica\","));

        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("pgb applier stopped: apply paused at transaction 7 (commit LSN 0/3000100): UPDATE of"
                + " \"public\".\"t\" found no row with key (\"id\")=(7) on the replica" + System.lineSeparator());
    }

    @Test
    void shouldPrintALineForTheInitialCopyWhileTheShipperRunsOne() {
        String copying = """
                "initial_copy":{"sessions":2,"tables":4,"tables_done":1,"rows":1234567,"bytes":188743680,"estimated_rows":2000110,
                 "rows_per_s":412345,"bytes_per_s":62914560,"elapsed_s":3.0,"eta_s":1,
                 "copying":[{"table":"public.pgbench_accounts","rows":1200000,"bytes":183500800,"estimated_rows":2000000,"seconds":3.0},
                            {"table":"public.pgbench_tellers","rows":0,"bytes":0,"estimated_rows":null,"seconds":0.01}]},
                """;
        coordinator.answer("GET /status", 200, Answers.STATUS.replace("\"last_decision\"", copying + "\"last_decision\""));

        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("store    file /var/lib/rdmarepl/state.json" + System.lineSeparator()
                + "copy     1 of 4 tables done, 1,234,567 of ~2,000,110 rows, 180.0 MB, 412,345 rows/s, 60.0 MB/s, ETA 1 s;"
                + " copying public.pgbench_accounts (1,200,000 of ~2,000,000 rows, 175.0 MB), public.pgbench_tellers (0 rows, 0.0 MB)"
                + System.lineSeparator());
    }

    @Test
    void shouldPrintNoCopyLineWithoutACopy() {
        assertThat(Run.of("status", "--coordinator", coordinator.url()).out()).doesNotContain("copy ");
    }

    @Test
    void shouldSendGetStatusWithoutTheToken() {
        Run.of("status", "--coordinator", coordinator.url(), "--token", "s3cret");

        assertThat(coordinator.received()).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("GET");
            assertThat(request.path()).isEqualTo("/status");
            assertThat(request.authorization()).isNull();
        });
    }

    @Test
    void shouldExitWith3NamingTheUrlWhenNothingListens() throws Exception {
        String closed = CannedCoordinator.closedPortUrl();

        Run run = Run.of("status", "--coordinator", closed);

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("rdmarepl status: cannot reach the coordinator at " + closed + " (connection refused): ")
                .contains("`rdmarepl coordinate`", "--coordinator", "RDMAREPL_COORDINATOR");
    }

    @Test
    void shouldExitWith3WhenTheCoordinatorDoesNotAnswerInTime() {
        coordinator.answerAfter("GET /status", 3_000, 200, Answers.STATUS);

        Run run = Run.of("status", "--coordinator", coordinator.url(), "--timeout-ms", "200");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("rdmarepl status: the coordinator at " + coordinator.url()
                + " did not answer GET /status within 200 ms; check `rdmarepl coordinate` there, or raise --timeout-ms"
                + System.lineSeparator());
    }

    @Test
    void shouldAcceptTheUrlWithATrailingSlash() {
        Run run = Run.of("status", "--coordinator", coordinator.url() + "/");

        assertThat(run.code()).isZero();
        assertThat(coordinator.received()).singleElement().extracting(CannedCoordinator.Received::path).isEqualTo("/status");
    }

    @Test
    void shouldExitWith3WhenTheUrlIsNotACoordinator() {
        coordinator.answer("GET /status", 404, "{\"error\":\"no such path\"}");

        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).startsWith("rdmarepl status: " + coordinator.url() + " does not serve GET /status (HTTP 404)");
    }

    @Test
    void shouldExitWith1WhenTheCoordinatorFails() {
        coordinator.answer("GET /status", 500, "{\"error\":\"state store closed\"}");

        Run run = Run.of("status", "--coordinator", coordinator.url());

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).startsWith("rdmarepl status: the coordinator failed GET /status (HTTP 500): state store closed");
    }

    @Test
    void shouldExitWith2OnBadUsageWithoutAsking() {
        Run badUrl = Run.of("status", "--coordinator", "127.0.0.1:7490");
        Run badTimeout = Run.of("status", "--coordinator", coordinator.url(), "--timeout-ms", "0");

        assertThat(badUrl.code()).isEqualTo(2);
        assertThat(badUrl.err()).isEqualTo("rdmarepl status: --coordinator must be an http:// URL such as http://127.0.0.1:7490, "
                + "got '127.0.0.1:7490'" + System.lineSeparator());
        assertThat(badTimeout.code()).isEqualTo(2);
        assertThat(badTimeout.err()).contains("--timeout-ms must be a positive number of milliseconds, got 0");
        assertThat(coordinator.received()).isEmpty();
    }

    @Test
    void shouldDefaultToTheLocalCoordinatorWhenTheEnvironmentNamesNone() {
        assumeTrue(System.getenv("RDMAREPL_COORDINATOR") == null, "RDMAREPL_COORDINATOR is set in this environment");

        String url = RdmareplCommand.commandLine().getSubcommands().get("status").getCommandSpec()
                .findOption("--coordinator").defaultValue();

        assertThat(url).isEqualTo("http://127.0.0.1:7490");
    }

    @Test
    void shouldDocumentItsExitCodesInHelp() {
        Run run = Run.of("status", "--help");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("Exit codes:", "0   done", "1   the coordinator failed to answer", "2   bad usage",
                "3   coordinator unreachable");
    }
}
