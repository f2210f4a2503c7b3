package io.rdmarepl.applier.role;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.apply.ApplierState;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.applier.testing.RingFeeder;
import io.rdmarepl.applier.testing.Rings;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An applier beside a member that may be primary: it leaves the database alone until activated, and a promoted
 * applier follows again when activated anew. One server for the class, one database per test (the read-only guard
 * is a database setting).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApplierRoleIT {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private static final ChannelSecurity SECRET = ChannelSecurity.ofText("role-it-secret-0123456789abcdef");
    private static PostgresServer replica;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void startReplica() {
        replica = PostgresServer.replica(Durability.FAST);
    }

    @AfterAll
    static void stopReplica() {
        if (replica != null) {
            replica.close();
        }
    }

    @Test
    void shouldTouchNothingUntilActivatedThenFollowAndFollowAgainAfterPromotion() throws Exception {
        String database = "role_shm";
        String ringUri = Rings.newUri("role");
        Path ringFile = ChannelUri.parse(ringUri).path();
        replica.createDatabase(database);
        write(database, "CREATE TABLE t (id int PRIMARY KEY)");

        try (ApplierRole role = role(database, ringUri)) {
            assertThat(role.state()).isEqualTo("waiting");
            assertThat(count(database, "SELECT count(*) FROM pg_namespace WHERE nspname = 'rdmarepl'"))
                    .as("rdmarepl schema before activation").isZero();
            assertThat(databaseSettings(database)).as("ALTER DATABASE settings before activation").isZero();
            assertThat(clientReadOnly(database)).isEqualTo("off");
            assertThat(applierSessions(database)).as("applier sessions before activation").isZero();
            assertThat(ringFile).as("ring before activation").doesNotExist();

            ApplierStatus activated = role.activate(OptionalInt.of(2));
            assertThat(activated.state()).isEqualTo(ApplierState.STREAMING);
            assertThat(activated.ringEpoch()).isEqualTo(2);
            assertThat(ringFile).exists();
            assertThat(clientReadOnly(database)).isEqualTo("on");
            assertThat(rows(database, "SELECT commit_lsn::text, epoch::text, promoted_epoch::text FROM rdmarepl.applied_position"))
                    .as("the epoch kept before anything is applied").containsExactly(java.util.Arrays.asList("0/0", "2", null));
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri))) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
                awaitApplied(role, 10);
            }

            role.promote(Duration.ofSeconds(10));
            assertThat(role.state()).isEqualTo("promoted");
            assertThat(clientReadOnly(database)).isEqualTo("off");
            write(database, "INSERT INTO t VALUES (100)"); // written while this member is the primary

            ApplierStatus again = role.activate(OptionalInt.of(3));
            assertThat(again.state()).isEqualTo(ApplierState.STREAMING);
            assertThat(again.ringEpoch()).isEqualTo(3);
            assertThat(again.appliedLsn()).as("resumes after the stored position").isEqualTo(10);
            assertThat(ringFile).exists();
            assertThat(clientReadOnly(database)).isEqualTo("on");
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri))) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(2, 20, insert(1, i4(2)));
                awaitApplied(role, 20);
            }
            assertThat(rows(database, "SELECT commit_lsn::text, epoch::text FROM rdmarepl.applied_position"))
                    .containsExactly(List.of(Lsn.format(20), "3"));
            assertThat(registry.get("rdmarepl.applier.state").gauge().value()).as("state gauge of the new applier")
                    .isEqualTo(ApplierState.STREAMING.code());
            Await.equalTo("applied LSN gauge of the new applier", DEADLINE,
                    () -> registry.get("rdmarepl.applier.applied.lsn").gauge().value(), 20.0);
            assertThat(rows(database, "SELECT id FROM t ORDER BY id"))
                    .containsExactly(List.of("1"), List.of("2"), List.of("100"));
        }
        assertThat(ringFile).as("ring after the role closed").doesNotExist();
    }

    @Test
    void shouldCreateTheSoftRdmaRingAgainAtTheSamePortWhenActivatedAfterPromotion() throws Exception {
        String database = "role_softrdma";
        String ringUri = "softrdma://127.0.0.1:" + freePort();
        replica.createDatabase(database);
        write(database, "CREATE TABLE t (id int PRIMARY KEY)");

        try (ApplierRole role = role(database, ringUri)) {
            assertThat(clientReadOnly(database)).isEqualTo("off");
            assertThat(role.activate(OptionalInt.of(2)).ringUri()).isEqualTo(ringUri);
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri), SECRET)) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
                awaitApplied(role, 10);
            }
            role.promote(Duration.ofSeconds(10));
            assertThat(clientReadOnly(database)).isEqualTo("off");

            ApplierStatus again = role.activate(OptionalInt.of(3));
            assertThat(again.ringUri()).isEqualTo(ringUri);
            assertThat(again.ringEpoch()).isEqualTo(3);
            assertThat(clientReadOnly(database)).isEqualTo("on");
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri), SECRET)) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(2, 20, insert(1, i4(2)));
                awaitApplied(role, 20);
            }
        }
        assertThat(rows(database, "SELECT id FROM t ORDER BY id")).containsExactly(List.of("1"), List.of("2"));
    }

    /**
     * The applier of a member that was promoted, restarted by its supervisor as configured (activation=immediate,
     * ring.epoch=1), must leave the member a primary: not read-only for its clients, and not following (a fenced
     * shipper of the old epoch would otherwise be taken). A switchover that makes it a standby again activates it at
     * a newer epoch, and a standby's applier restarted then starts its ring at that epoch, not at ring.epoch's.
     */
    @Test
    void shouldLeaveAPromotedMemberAPrimaryWhenItsApplierRestartsAndKeepTheNewestEpoch() throws Exception {
        String database = "role_restart";
        String ringUri = Rings.newUri("role-restart");
        replica.createDatabase(database);
        write(database, "CREATE TABLE t (id int PRIMARY KEY)");

        try (ApplierRole role = role(database, ringUri, "immediate")) {
            assertThat(role.current().orElseThrow().status().ringEpoch()).isEqualTo(1);
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri))) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(1, 10, insert(1, i4(1)));
                awaitApplied(role, 10);
            }
            role.epoch(2); // as POST /promote {"epoch": 2} does
            role.promote(Duration.ofSeconds(10));
            assertThat(clientReadOnly(database)).isEqualTo("off");
        }
        assertThat(rows(database, "SELECT epoch::text, promoted_epoch::text FROM rdmarepl.applied_position"))
                .containsExactly(List.of("2", "2"));

        try (ApplierRole restarted = role(database, ringUri, "immediate")) {
            assertThat(restarted.state()).isEqualTo("promoted");
            assertThat(restarted.current()).as("no applier runs").isEmpty();
            assertThat(String.valueOf(restarted.statusDocument().get("reason"))).contains("promoted at epoch 2");
            assertThat(clientReadOnly(database)).as("the new primary, for its clients").isEqualTo("off");
            write(database, "INSERT INTO t VALUES (100)");
            // the coordinator asks again when the promotion's answer was lost (POST /promote {"epoch": 2})
            restarted.epoch(2);
            assertThat(restarted.promote(Duration.ofSeconds(10))).isEmpty();
            assertThat(restarted.appliedLsn()).isEqualTo(10);
            assertThatThrownBy(() -> restarted.epoch(3)).as("a newer epoch needs an activation")
                    .hasMessageContaining("activate it first");

            ApplierStatus standbyAgain = restarted.activate(OptionalInt.of(3)); // a switchover's activation
            assertThat(standbyAgain.ringEpoch()).isEqualTo(3);
            assertThat(clientReadOnly(database)).isEqualTo("on");
        }
        assertThat(rows(database, "SELECT epoch::text, promoted_epoch::text FROM rdmarepl.applied_position"))
                .containsExactly(java.util.Arrays.asList("3", null));

        try (ApplierRole standby = role(database, ringUri, "immediate")) {
            assertThat(standby.state()).isEqualTo("streaming");
            assertThat(standby.current().orElseThrow().status().ringEpoch()).as("ring.epoch says 1").isEqualTo(3);
        }
    }

    /** A table an earlier version created (no promoted_epoch): the applier adds the column and goes on from its row. */
    @Test
    void shouldTakeOverThePositionTableOfAnEarlierVersion() throws Exception {
        String database = "role_upgrade";
        String ringUri = Rings.newUri("role-upgrade");
        replica.createDatabase(database);
        write(database, "CREATE TABLE t (id int PRIMARY KEY); CREATE SCHEMA rdmarepl; CREATE TABLE rdmarepl.applied_position ("
                + "source text PRIMARY KEY, commit_lsn pg_lsn NOT NULL, tx_id bigint NOT NULL, epoch bigint NOT NULL,"
                + " applied_at timestamptz NOT NULL); INSERT INTO rdmarepl.applied_position VALUES ('role', '0/10', 1, 4, now())");

        try (ApplierRole role = role(database, ringUri, "immediate")) {
            ApplierStatus status = role.current().orElseThrow().status();
            assertThat(status.appliedLsn()).isEqualTo(0x10);
            assertThat(status.ringEpoch()).as("the epoch its last group was applied at").isEqualTo(4);
            try (RingFeeder feeder = new RingFeeder(ChannelUri.parse(ringUri))) {
                feeder.send(relation(1, "t", 'd', "id*")).transaction(2, 0x20, insert(1, i4(2)));
                awaitApplied(role, 0x20);
            }
        }
        assertThat(rows(database, "SELECT commit_lsn::text, epoch::text, promoted_epoch::text FROM rdmarepl.applied_position"))
                .containsExactly(java.util.Arrays.asList("0/20", "4", null));
    }

    private ApplierRole role(String database, String ringUri) {
        return role(database, ringUri, "on-request");
    }

    private ApplierRole role(String database, String ringUri, String activation) {
        ApplierConfig config = ApplierConfig.of(
                "activation", activation,
                "source.name", "role",
                "ring.uri", ringUri,
                "ring.capacity.bytes", "1048576",
                "replica.jdbc.url", replica.jdbcUrl(database),
                "apply.retry.initial.ms", "50",
                "apply.retry.max.ms", "200",
                "admin.port", "0");
        return ApplierRole.create(config, c -> Applier.start(c, registry, SECRET));
    }

    private static void awaitApplied(ApplierRole role, long commitLsn) {
        Await.until("applied LSN reaches " + Lsn.format(commitLsn), DEADLINE,
                () -> role.current().orElseThrow().status(), s -> Lsn.compare(s.appliedLsn(), commitLsn) >= 0);
    }

    /** What a new client session of {@code database} starts with. */
    private static String clientReadOnly(String database) throws SQLException {
        return rows(database, "SHOW default_transaction_read_only").get(0).get(0);
    }

    private static long databaseSettings(String database) throws SQLException {
        return count(database, "SELECT count(*) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase"
                + " WHERE d.datname = current_database()");
    }

    private static long applierSessions(String database) throws SQLException {
        return count(database, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND application_name LIKE 'rdmarepl-applier%'");
    }

    private static long count(String database, String sql) throws SQLException {
        return Long.parseLong(rows(database, sql).get(0).get(0));
    }

    private static List<List<String>> rows(String database, String sql) throws SQLException {
        try (Connection c = replica.connect(database); PreparedStatement s = c.prepareStatement(sql);
             ResultSet r = s.executeQuery()) {
            List<List<String>> out = new java.util.ArrayList<>();
            while (r.next()) {
                List<String> row = new java.util.ArrayList<>();
                for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                    row.add(r.getString(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private static void write(String database, String sql) throws SQLException {
        try (Connection c = replica.connect(database); Statement s = c.createStatement()) {
            s.execute("SET default_transaction_read_only = off");
            s.execute(sql);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port for the softrdma ring: " + e.getMessage(), e);
        }
    }
}
