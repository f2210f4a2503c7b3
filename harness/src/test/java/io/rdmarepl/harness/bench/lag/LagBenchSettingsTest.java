package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.harness.HarnessCommand;
import io.rdmarepl.harness.bench.lag.catchup.CatchUpSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class LagBenchSettingsTest {
    private static final Map<String, String> NO_SECRET = Map.of();

    @TempDir
    Path dir;

    @Test
    void shouldTakeTheDocumentedDefaults() {
        LagBenchSettings s = settings(NO_SECRET);

        assertThat(s.seconds()).isEqualTo(20);
        assertThat(s.rounds()).isEqualTo(3);
        assertThat(s.probeRate()).isEqualTo(500);
        assertThat(s.load().none()).isTrue();
        assertThat(s.transports()).containsExactly("shm");
        assertThat(s.nativeSync()).isEqualTo("off");
        assertThat(s.fsync()).isTrue();
        assertThat(s.attached()).isFalse();
        assertThat(s.toMap()).containsEntry("fsync", "on").containsEntry("servers", "embedded").containsEntry("load", "none");
        assertThat(s.localSockets()).as("the roles reach their servers as sidecars do").isTrue();
        assertThat(s.toMap()).containsEntry("local_connections", "unix socket");
    }

    @Test
    void shouldLetTheRolesUseTcpAndRefuseAnyOtherConnection() {
        assertThat(settings(NO_SECRET, "--local-connections", "tcp").localSockets()).isFalse();
        assertThat(settings(NO_SECRET, "--local-connections", "tcp").catchUpSettings().localSockets()).isFalse();
        assertThatThrownBy(() -> settings(NO_SECRET, "--local-connections", "udp"))
                .hasMessageContaining("--local-connections udp: must be socket or tcp");
        assertThat(settings(NO_SECRET, "--primary", "jdbc:postgresql://a:1/x", "--replica", "jdbc:postgresql://b:2/y").localSockets())
                .as("attached servers are reached as their URLs say").isFalse();
    }

    @Test
    void shouldMeasureLagUnlessToldToMeasureSyncCommits() {
        LagBenchSettings lag = settings(NO_SECRET);

        assertThat(lag.syncMode()).isFalse();
        assertThat(lag.toMap()).containsEntry("mode", "lag").containsEntry("sync_level", null).containsEntry("client_synchronous_commit", null)
                .containsEntry("shipper", Map.of()).containsEntry("applier", Map.of());
    }

    @Test
    void shouldWaitForTheApplyAndCommitDurablyOnTheReplicaInSyncModeByDefault() {
        LagBenchSettings s = settings(NO_SECRET, "--mode", "sync");

        assertThat(s.syncMode()).isTrue();
        assertThat(s.syncLevel()).isEqualTo("remote_apply");
        assertThat(s.clientSynchronousCommit()).isEqualTo("remote_apply");
        assertThat(s.nativeSync()).as("replica-side commits durable, or rdmarepl's durable LSN follows the WAL writer").isEqualTo("on");
        assertThat(s.toMap()).containsEntry("mode", "sync").containsEntry("sync_level", "remote_apply")
                .containsEntry("client_synchronous_commit", "remote_apply").containsEntry("native_sync", "on");

        LagBenchSettings flush = settings(NO_SECRET, "--mode", "SYNC", "--sync-level", "remote_flush", "--native-sync", "local");

        assertThat(flush.clientSynchronousCommit()).isEqualTo("on");
        assertThat(flush.syncLevel()).isEqualTo("remote_flush");
        assertThat(flush.nativeSync()).isEqualTo("local");
    }

    @Test
    void shouldRefuseABadModeOrSyncLevel() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--mode", "fast", "--sync-level", "remote_write"))
                .hasMessageContaining("--mode fast: must be lag or sync")
                .hasMessageContaining("--sync-level remote_write: must be remote_apply or remote_flush");
        assertThatThrownBy(() -> settings(NO_SECRET, "--sync-level", "remote_apply"))
                .hasMessageContaining("--sync-level remote_apply: only with --mode sync");
    }

    @Test
    void shouldPassShipperAndApplierSettingsOnButNotTheBenchsOwnKeys() {
        LagBenchSettings s = settings(NO_SECRET, "--mode", "sync", "--shipper", "heartbeat.interval.ms=1", "--shipper",
                "debezium.max.batch.size=16", "--applier", "apply.idle.max.park.us=50");

        assertThat(s.shipperSettings()).containsExactly(Map.entry("debezium.max.batch.size", "16"), Map.entry("heartbeat.interval.ms", "1"));
        assertThat(s.applierSettings()).containsExactly(Map.entry("apply.idle.max.park.us", "50"));
        assertThat(s.toMap()).containsEntry("shipper", s.shipperSettings()).containsEntry("applier", s.applierSettings());

        assertThatThrownBy(() -> settings(NO_SECRET, "--shipper", "slot.name=mine", "--shipper", "replication.mode=sync", "--shipper",
                "database.password=s3cret", "--applier", "apply.synchronous.commit=on", "--applier", "ring.uri=shm:///dev/shm/x"))
                .hasMessageContaining("--shipper slot.name=mine: the benchmark sets slot.name itself")
                .hasMessageContaining("--shipper replication.mode=sync: the benchmark sets replication.mode itself; use --mode")
                .hasMessageContaining("--shipper database.password=******")
                .hasMessageContaining("--applier apply.synchronous.commit=on: the benchmark sets apply.synchronous.commit itself; use --native-sync")
                .hasMessageContaining("--applier ring.uri=shm:///dev/shm/x: the benchmark sets ring.uri itself")
                .message().doesNotContain("s3cret");
    }

    @Test
    void shouldLetTheShipperAndTheApplierJudgeTheirValues() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--shipper", "heartbeat.interval.ms=0", "--shipper", "no.such.key=1"))
                .hasMessageContaining("--shipper: shipper configuration: 2 problems: heartbeat.interval.ms=0: must be between 1 and 60000;"
                        + " no.such.key: unknown key");
        assertThatThrownBy(() -> settings(NO_SECRET, "--applier", "apply.idle.max.park.us=soon"))
                .hasMessageContaining("--applier: ")
                .hasMessageContaining("apply.idle.max.park.us");
    }

    @Test
    void shouldNameEveryBadOptionInOneError() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--seconds", "0", "--rounds", "0", "--probe-rate", "20000", "--load", "sometimes",
                "--clients", "0", "--transports", "shm,tcp", "--native-sync", "maybe", "--fsync", "yes", "--chart",
                dir.resolve("lag.gif").toString(), "--json", dir.resolve("missing/out.json").toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--seconds 0: must be 1..3600")
                .hasMessageContaining("--rounds 0: must be 1..100")
                .hasMessageContaining("--probe-rate 20000: must be 1..10000")
                .hasMessageContaining("--load sometimes: must be none, max or transactions per second")
                .hasMessageContaining("--clients 0")
                .hasMessageContaining("--transports tcp: must be shm or softrdma")
                .hasMessageContaining("--native-sync maybe")
                .hasMessageContaining("--fsync yes: must be on or off")
                .hasMessageContaining("--chart " + dir.resolve("lag.gif") + ": must end in .png or .svg")
                .hasMessageContaining("--json " + dir.resolve("missing/out.json") + ": directory");
    }

    @Test
    void shouldMeasureCatchUpWithTheSharedOptionsAndItsOwn() {
        LagBenchSettings s = settings(NO_SECRET, "--catch-up", "20", "--apply-workers", "1,2,4", "--scale", "4", "--rounds", "2",
                "--clients", "8", "--native-sync", "local");

        assertThat(s.catchUp()).isNotNull();
        CatchUpSettings c = s.catchUpSettings();
        assertThat(c.options().seconds()).isEqualTo(20);
        assertThat(c.options().applyWorkers()).containsExactly(1, 2, 4);
        assertThat(c.options().scale()).isEqualTo(4);
        assertThat(c.rounds()).isEqualTo(2);
        assertThat(c.clients()).isEqualTo(8);
        assertThat(c.nativeSync()).isEqualTo("local");
        assertThat(settings(NO_SECRET).catchUp()).as("lag unless --catch-up").isNull();
    }

    @Test
    void shouldRefuseLagOnlyOptionsWithCatchUpAndCatchUpOptionsWithoutIt() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--catch-up", "20", "--load", "max", "--seconds", "20", "--mode", "sync",
                "--applier", "apply.workers=2"))
                .hasMessageContaining("--load: not with --catch-up")
                .hasMessageContaining("--seconds: not with --catch-up")
                .hasMessageContaining("--mode: not with --catch-up")
                .hasMessageContaining("--applier apply.workers: with --catch-up use --apply-workers");
        assertThatThrownBy(() -> settings(NO_SECRET, "--scale", "2", "--apply-workers", "2"))
                .hasMessageContaining("--apply-workers: only with --catch-up")
                .hasMessageContaining("--scale: only with --catch-up");
    }

    @Test
    void shouldRefuseSoftRdmaWithoutTheChannelSecret() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--transports", "shm,softrdma"))
                .hasMessageContaining("--transports softrdma: set RDMAREPL_CHANNEL_SECRET");
        assertThatThrownBy(() -> settings(Map.of("RDMAREPL_CHANNEL_SECRET", "short"), "--transports", "softrdma"))
                .hasMessageContaining("--transports softrdma: RDMAREPL_CHANNEL_SECRET channel secret must be at least 16 bytes");

        LagBenchSettings s = settings(Map.of("RDMAREPL_CHANNEL_SECRET", "0123456789abcdef0123456789abcdef"), "--transports", "softrdma,shm");

        assertThat(s.transports()).containsExactly("softrdma", "shm");
    }

    @Test
    void shouldRefuseRdmaAndDuplicateTransports() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--transports", "rdma"))
                .hasMessageContaining("--transports rdma: not in bench lag");
        assertThatThrownBy(() -> settings(NO_SECRET, "--transports", "shm,shm"))
                .hasMessageContaining("--transports shm: named twice");
    }

    @Test
    void shouldAttachOnlyWithBothServersAndWithoutFsync() {
        assertThatThrownBy(() -> settings(NO_SECRET, "--primary", "jdbc:postgresql://127.0.0.1:5432/postgres"))
                .hasMessageContaining("--primary: give both --primary and --replica, or neither");
        assertThatThrownBy(() -> settings(NO_SECRET, "--primary", "jdbc:postgresql://a:1/x", "--replica", "jdbc:postgresql://b:2/y",
                "--fsync", "off"))
                .hasMessageContaining("--fsync off: only for the embedded servers");
        assertThatThrownBy(() -> settings(NO_SECRET, "--primary", "postgres://a", "--replica", "jdbc:postgresql://b:2/y"))
                .hasMessageContaining("--primary postgres://a: not a PostgreSQL JDBC URL");
    }

    @Test
    void shouldReadAttachedServersFromJdbcUrlsAndNeverShowThePassword() {
        LagBenchSettings s = settings(NO_SECRET, "--primary", "jdbc:postgresql://10.1.2.3:6543/app?user=bench&password=s3cret",
                "--replica", "jdbc:postgresql://localhost/app");

        assertThat(s.primary()).isEqualTo(new Endpoint("10.1.2.3", 6543, "bench", "s3cret"));
        assertThat(s.replica().port()).isEqualTo(5432);
        assertThat(s.primary().toString()).doesNotContain("s3cret");
        assertThat(s.toMap().toString()).doesNotContain("s3cret").contains("password=******");
        assertThat(s.toMap()).containsEntry("servers", "attached").containsEntry("fsync", null);
        assertThat(s.primary().conninfo("rdmarepl_lag"))
                .isEqualTo("host='10.1.2.3' port=6543 dbname='rdmarepl_lag' user='bench' password='s3cret'");
    }

    @Test
    void shouldParseTheLoad() {
        assertThat(Load.parse("none").none()).isTrue();
        assertThat(Load.parse("max").kind()).isEqualTo(Load.Kind.MAX);
        assertThat(Load.parse("max").clientIntervalNs(4)).isZero();
        assertThat(Load.parse("800")).isEqualTo(new Load(Load.Kind.RATE, 800));
        assertThat(Load.parse("800").clientIntervalNs(4)).isEqualTo(5_000_000L);
        assertThatThrownBy(() -> Load.parse("0")).hasMessageContaining("--load 0:");
        assertThatThrownBy(() -> Load.parse("fast")).hasMessageContaining("--load fast:");
    }

    @Test
    void shouldStopWithUsageExitCodeBeforeStartingAnything() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = HarnessCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));

        int code = commandLine.execute("bench", "lag", "--rounds", "0", "--load", "lots");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--rounds 0: must be 1..100").contains("--load lots:").doesNotContain("bench lag: starting");
        assertThat(out.toString()).isEmpty();
    }

    private static LagBenchSettings settings(Map<String, String> environment, String... args) {
        LagBenchCommand command = new LagBenchCommand();
        new CommandLine(command).parseArgs(args);
        return LagBenchSettings.of(command, environment);
    }
}
