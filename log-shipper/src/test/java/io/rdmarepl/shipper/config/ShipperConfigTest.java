package io.rdmarepl.shipper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigTable;
import io.rdmarepl.shipper.capture.pgoutput.PrimaryEndpoint;
import io.rdmarepl.testsupport.ExampleConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShipperConfigTest {

    @Test
    void shouldLoadTheExampleConfigurations() {
        List<Path> files = ExampleConfigs.named("shipper.properties", "reverse-shipper.properties");
        assertThat(files).as("config/ and config/rdma/ shipper examples").hasSize(4);
        for (Path file : files) {
            assertThat(ShipperConfig.load(ExampleConfigs.read(file))).as(file.toString()).isNotNull();
        }
    }

    @Test
    void shouldApplyDefaultsForEverythingButTheStandbys() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        ShipperConfig config = ShipperConfig.load(p);

        assertThat(config.slotName()).isEqualTo("rdmarepl");
        assertThat(config.heartbeatInterval().toMillis()).isEqualTo(5);
        assertThat(config.sequenceSyncInterval().toMillis()).isEqualTo(1000);
        assertThat(config.standbys()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("a");
            assertThat(s.required()).isTrue();
        });
        assertThat(config.adminAddress().getPort()).isEqualTo(7480);
        assertThat(config.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost:5432/postgres?sslmode=prefer");
        assertThat(config.captureEngine()).isEqualTo("pgoutput");
        assertThat(config.receiveBufferBytes()).isEqualTo(65536);
        assertThat(config.sslMode()).isEqualTo("prefer");
    }

    @Test
    void shouldRefuseANegativeReceiveBufferNamingTheKey() {
        Properties p = minimal();
        p.setProperty("capture.receive.buffer.bytes", "-1");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capture.receive.buffer.bytes").hasMessageContaining("-1");
        p.setProperty("capture.receive.buffer.bytes", "1024");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("capture.receive.buffer.bytes")
                .hasMessageContaining("at least 4096");
        p.setProperty("capture.receive.buffer.bytes", "0");
        assertThat(ShipperConfig.load(p).receiveBufferBytes()).as("0: the kernel's autotuning").isZero();
        p.setProperty("capture.receive.buffer.bytes", "131072");
        assertThat(PrimaryEndpoint.of(ShipperConfig.load(p)).receiveBufferBytes()).as("the replication connection asks for it")
                .isEqualTo(131072);
    }

    @Test
    void shouldRefuseAnUnknownEngineAndAVerifyingSslModeWithoutItsRootCertificate() {
        Properties p = minimal();
        p.setProperty("capture.engine", "wal2json");
        p.setProperty("database.sslmode", "verify-full");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capture.engine").hasMessageContaining("wal2json")
                .hasMessageContaining("database.sslrootcert");
        p.setProperty("capture.engine", "debezium");
        p.setProperty("database.sslrootcert", "/nonexistent/root.crt");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("database.sslrootcert")
                .hasMessageContaining("not a readable file");
        p.setProperty("database.sslmode", "require");
        p.remove("database.sslrootcert");
        assertThat(ShipperConfig.load(p).jdbcUrl()).endsWith("?sslmode=require");
    }

    /** libpq's rule: a host that is an absolute path is the directory of the server's Unix-domain socket. */
    @Test
    void shouldReachThePrimaryThroughItsSocketWhenTheHostIsADirectory() {
        Properties p = minimal();
        p.setProperty("database.host", "/var/run/postgresql");
        p.setProperty("database.port", "5433");
        ShipperConfig config = ShipperConfig.load(p);
        assertThat(config.address().unixSocket()).isTrue();
        assertThat(config.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost:5433/postgres?sslmode=disable&socketFactory="
                + "io.rdmarepl.config.postgres.UnixSocketFactory&socketFactoryArg=%2Fvar%2Frun%2Fpostgresql%2F.s.PGSQL.5433");
        assertThat(config.databaseDescription()).isEqualTo("postgres@/var/run/postgresql/.s.PGSQL.5433/postgres");
    }

    @Test
    void shouldRefuseTlsAndDebeziumOverASocketNamingTheKeys() {
        Properties p = minimal();
        p.setProperty("database.host", "/var/run/postgresql");
        p.setProperty("database.sslmode", "require");
        p.setProperty("capture.engine", "debezium");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("database.sslmode").hasMessageContaining("no TLS over its Unix-domain socket")
                .hasMessageContaining("capture.engine").hasMessageContaining("over TCP only");
    }

    @Test
    void shouldListEveryProblemAtOnceWithSecretsMasked() {
        Properties p = new Properties();
        p.setProperty("standbys", "a,b");
        p.setProperty("standby.a.uri", "tcp://x:1");
        p.setProperty("standby.b.uri", "shm:///dev/shm/b");
        p.setProperty("standby.b.required", "maybe");
        p.setProperty("database.port", "70000");
        p.setProperty("database.password", "hunter2");
        p.setProperty("slot.name", "Bad-Slot");
        p.setProperty("heartbeat.interval.ms", "soon");
        p.setProperty("snapshot.mode", "sometimes");
        p.setProperty("ship.buffer.events", "1000");
        p.setProperty("admin.token", "t0ken");
        p.setProperty("heartbeat.intervall.ms", "5");
        p.setProperty("debezium.poll.interval.ms", "1");

        assertThatThrownBy(() -> ShipperConfig.load(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("standby.a.uri=tcp://x:1: channel URI 'tcp://x:1' has unknown scheme 'tcp'")
                .hasMessageContaining("standby.b.required=maybe: must be true or false")
                .hasMessageContaining("database.port=70000: must be between 1 and 65535")
                .hasMessageContaining("slot.name=Bad-Slot")
                .hasMessageContaining("heartbeat.interval.ms=soon: must be a whole number")
                .hasMessageContaining("snapshot.mode=sometimes")
                .hasMessageContaining("ship.buffer.events=1000: must be a power of two")
                .hasMessageContaining("heartbeat.intervall.ms: unknown key")
                .hasMessageNotContaining("hunter2")
                .hasMessageNotContaining("t0ken")
                .hasMessageNotContaining("debezium.poll.interval.ms");
    }

    @Test
    void shouldPassDebeziumKeysThroughWithoutThePrefix() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        p.setProperty("debezium.max.queue.size.in.bytes", "1000000");
        assertThat(ShipperConfig.load(p).debezium()).containsEntry("max.queue.size.in.bytes", "1000000");
    }

    @Test
    void shouldMatchTheTableOfItsDocumentationPage() throws Exception {
        Path page = Path.of("..").resolve(ShipperKeys.ALL.page());
        assertThat(ConfigTable.verify(page, ShipperKeys.ALL, Boolean.getBoolean("rdmarepl.docs.update")))
                .as("%s against ShipperKeys (run with -Drdmarepl.docs.update=true to rewrite its table)", page).isEmpty();
    }

    @Test
    void shouldNameTheFileAndEveryProblemInIt(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("shipper.properties"),
                "standbys=a,b\nstandby.a.uri=shm:///dev/shm/a\nstandby.c.uri=shm:///dev/shm/c\nship.buffer.events=1000\n");
        assertThatThrownBy(() -> ShipperConfig.load(file)).isInstanceOf(ConfigException.class).hasMessage(file + ": 3 problems:\n"
                + "  standby.b.uri=: must be set for every name in standbys\n"
                + "  ship.buffer.events=1000: must be a power of two between 64 and 16777216\n"
                + "  standby.c.uri: unknown key (did you mean standby.a.uri?)");
    }

    @Test
    void shouldTakeThePasswordFromAFileAndTheTokenFromTheEnvironmentNamingAReferenceThatCannotBeRead(@TempDir Path dir)
            throws Exception {
        Path password = Files.writeString(dir.resolve("password"), "hunter2\n");
        Properties p = minimal();
        p.setProperty("database.password", "${file:" + password + "}");
        p.setProperty("admin.token", "${env:RDMAREPL_NO_SUCH_VARIABLE}");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(ConfigException.class).hasMessage("shipper configuration: 1 problem:\n"
                + "  admin.token=${env:RDMAREPL_NO_SUCH_VARIABLE}: environment variable RDMAREPL_NO_SUCH_VARIABLE is not set");
        p.remove("admin.token");
        ShipperConfig config = ShipperConfig.load(p);
        assertThat(config.databasePassword()).isEqualTo("hunter2");
        assertThat(config.describe()).doesNotContain("hunter2");
    }

    @Test
    void shouldRefuseASequenceSyncIntervalThatIsNotAPositiveNumberOfMilliseconds() {
        Properties p = minimal();
        p.setProperty("sequence.sync.interval.ms", "250");
        assertThat(ShipperConfig.load(p).sequenceSyncInterval().toMillis()).isEqualTo(250);
        assertThat(ShipperConfig.load(p).describe()).contains("sequences every 250ms");
        p.setProperty("sequence.sync.interval.ms", "often");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence.sync.interval.ms=often: must be a whole number");
        p.setProperty("sequence.sync.interval.ms", "0");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence.sync.interval.ms=0: must be between 10 and 3600000");
    }

    @Test
    void shouldRunALeaseByDefaultOnlyWhenACoordinatorCanRenewIt() {
        assertThat(ShipperConfig.load(minimal()).fenceLeaseMs()).as("no admin.token: no coordinator renews, none promotes").isZero();
        assertThat(ShipperConfig.load(minimal()).describe()).contains("lease=off");
        Properties p = minimal();
        p.setProperty("admin.token", "t0ken");
        assertThat(ShipperConfig.load(p).fenceLeaseMs()).isEqualTo(ShipperConfig.AUTO_LEASE_MS);
        assertThat(ShipperConfig.load(p).describe()).contains("lease=2000ms");
        p.setProperty("fence.lease.ms", "0");
        assertThat(ShipperConfig.load(p).fenceLeaseMs()).as("off when asked").isZero();
        p.setProperty("fence.lease.ms", "50");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("fence.lease.ms=50: must be auto, 0 (off) or between 100 and 3600000");
        p.setProperty("fence.lease.ms", "soon");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("fence.lease.ms=soon: must be auto");
    }

    @Test
    void shouldPutTheLeaseFileInSharedMemoryNamedAfterTheSourceAndLetAProcessGuardIt() {
        Properties p = minimal();
        p.setProperty("admin.token", "t0ken");
        p.setProperty("source.name", "db a/1");
        ShipperConfig config = ShipperConfig.load(p);
        assertThat(config.leaseFile()).isEqualTo(java.nio.file.Path.of("/dev/shm/rdmarepl-lease-db_a_1"));
        assertThat(config.fenceGuard()).isEqualTo(GuardMode.PROCESS);
        assertThat(config.describe()).contains("lease=2000ms (guard process, /dev/shm/rdmarepl-lease-db_a_1)");
        p.setProperty("fence.guard", "external");
        assertThat(ShipperConfig.load(p).fenceGuard()).isEqualTo(GuardMode.EXTERNAL);
    }

    @Test
    void shouldRefuseALeaseDirectoryItCannotWriteAndAGuardModeItDoesNotKnow() {
        Properties p = minimal();
        p.setProperty("admin.token", "t0ken");
        p.setProperty("fence.lease.dir", "/nonexistent/lease");
        p.setProperty("fence.guard", "thread");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence.lease.dir=/nonexistent/lease: is not a writable directory (the lease file"
                        + " rdmarepl-lease-<source.name> goes there while fence.lease.ms is 2000)")
                .hasMessageContaining("fence.guard=thread");
        p.setProperty("fence.guard", "process");
        p.setProperty("fence.lease.ms", "0");
        assertThat(ShipperConfig.load(p).fenceLeaseMs()).as("no lease: no file").isZero();
    }

    @Test
    void shouldRefuseASyncDegradationThatReleasesCommitsBeforeTheLeaseFencesThePrimary() {
        Properties p = minimal();
        p.setProperty("admin.token", "t0ken");
        p.setProperty("replication.mode", "sync");
        p.setProperty("sync.degrade.after.ms", "1000");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sync.degrade.after.ms=1000: must be longer than fence.lease.ms (2000) + the lease check (100 ms)"
                        + " + a self-fence's time limit (2000 ms) = 4100 ms");
        p.setProperty("sync.degrade.after.ms", "4101");
        assertThat(ShipperConfig.load(p).sync().degradeAfterMs()).isEqualTo(4101);
        p.setProperty("sync.degrade.after.ms", "1000");
        p.setProperty("fence.lease.ms", "0");
        assertThat(ShipperConfig.load(p).sync().degradeAfterMs()).as("no lease: nothing to outlast").isEqualTo(1000);
        p.setProperty("fence.lease.ms", "300");
        p.setProperty("replication.mode", "async");
        assertThat(ShipperConfig.load(p).fenceLeaseMs()).as("async mode never degrades").isEqualTo(300);
    }

    @Test
    void shouldActivateImmediatelyUnlessToldToWaitForTheCoordinator() {
        assertThat(ShipperConfig.load(minimal()).activation()).isEqualTo(Activation.IMMEDIATE);
        Properties p = minimal();
        p.setProperty("activation", "on-request");
        ShipperConfig config = ShipperConfig.load(p);
        assertThat(config.activation()).isEqualTo(Activation.ON_REQUEST);
        assertThat(config.describe()).contains("activation=on-request");
        p.setProperty("activation", "later");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("activation=later: must be one of immediate, on-request");
    }

    @Test
    void shouldRefuseToPublishTheApplierBookkeepingSchema() {
        Properties p = minimal();
        p.setProperty("publication.tables", "public.accounts,rdmarepl.applied_position");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("publication.tables=rdmarepl.applied_position: schema rdmarepl")
                .hasMessageNotContaining("public.accounts");
        p.setProperty("publication.tables", "RdmaRepl.anything");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("publication.tables=RdmaRepl.anything");
        p.setProperty("publication.tables", "rdmarepl_app.orders");
        assertThat(ShipperConfig.load(p).publicationTables()).containsExactly("rdmarepl_app.orders");
    }

    @Test
    void shouldRefuseADebeziumSchemaIncludeListThatCoversTheBookkeepingSchema() {
        Properties p = minimal();
        p.setProperty("debezium.schema.include.list", "public,rdma.*");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("debezium.schema.include.list=public,rdma.*");
        p.setProperty("debezium.schema.include.list", "public,sales");
        assertThat(ShipperConfig.load(p).debezium()).containsEntry("schema.include.list", "public,sales");
    }

    @Test
    void shouldChangeOnlyTheSnapshotModeForAnActivation() {
        ShipperConfig config = ShipperConfig.load(minimal());
        ShipperConfig copying = config.withSnapshotMode("initial");
        assertThat(copying.snapshotMode()).isEqualTo("initial");
        assertThat(copying.withSnapshotMode(config.snapshotMode())).isEqualTo(config);
    }

    @Test
    void shouldCopyTwoTablesAtOnceByDefaultAndRefuseFewerThanOneSessionNamingTheKey() {
        Properties p = minimal();
        assertThat(ShipperConfig.load(p).snapshotParallelTables()).isEqualTo(2);
        assertThat(ShipperConfig.load(p).describe()).contains("copy sessions=2");
        p.setProperty("snapshot.parallel.tables", "4");
        assertThat(ShipperConfig.load(p).snapshotParallelTables()).isEqualTo(4);
        assertThat(ShipperConfig.load(p).withSnapshotMode("initial").snapshotParallelTables()).isEqualTo(4);
        p.setProperty("snapshot.parallel.tables", "0");
        assertThatThrownBy(() -> ShipperConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot.parallel.tables=0: must be between 1 and 64");
        p.setProperty("snapshot.parallel.tables", "many");
        assertThatThrownBy(() -> ShipperConfig.load(p)).hasMessageContaining("snapshot.parallel.tables=many: must be a whole number");
    }

    private static Properties minimal() {
        Properties p = new Properties();
        p.setProperty("standbys", "a");
        p.setProperty("standby.a.uri", "shm:///dev/shm/a");
        return p;
    }

    @Test
    void shouldRequireAStandby() {
        assertThatThrownBy(() -> ShipperConfig.load(new Properties())).hasMessageContaining("standbys=: name at least one standby");
    }
}
