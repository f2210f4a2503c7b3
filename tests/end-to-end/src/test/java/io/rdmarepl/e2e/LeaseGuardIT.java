package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.shipper.lease.FenceState;
import io.rdmarepl.shipper.lease.GuardRecord;
import io.rdmarepl.shipper.lease.LeaseFile;
import io.rdmarepl.shipper.lease.LeaseState;
import io.rdmarepl.shipper.lease.ShipperRecord;
import io.rdmarepl.testsupport.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease outlives {@code rdmarepl ship}: its lease guard, a process of its own, fences the primary once the last
 * word from a standby is older than {@code fence.lease.ms}, with the shipper SIGKILLed and nothing left to renew the
 * lease; a shipper restarted without its standby neither renews the lease nor lifts the fence, and ships again once
 * an operator lifted it; a clean stop fences nothing. One pair of servers for the whole class, the tests in order:
 * each starts where the last one left off.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LeaseGuardIT {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseGuardIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LEASE_MS = 1000;
    /** The guard looks every 100 ms, and an attempt to fence may take up to 2 s (the lease's terms). */
    private static final long FENCED_WITHIN_MS = LEASE_MS + 100 + 2000;
    /** A busy 2-vCPU host: scheduling, a JVM that stalls. Never needed for the bound above on a quiet one. */
    private static final long SLACK_MS = 3000;
    private static final String READ_ONLY = "25006";
    private static final String TERMINATED_BY_THE_FENCE = "57P01";

    private Replication replication;
    private final AtomicLong nextId = new AtomicLong();

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create("lease-guard");
        replication.shipperSetting("fence.lease.ms", Long.toString(LEASE_MS));
        replication.primary().execute("CREATE TABLE lease_writes (id bigint PRIMARY KEY)");
        replication.replica().execute("CREATE TABLE lease_writes (id bigint PRIMARY KEY)");
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    @Test
    @Order(1)
    void aCleanStopLetsTheGuardGoWithoutFencingThePrimary() throws Exception {
        replication.startBoth();
        JsonNode guard = awaitLeaseHeardFromTheStandby();
        long guardPid = guard.path("guard_pid").asLong();
        assertThat(guard.path("guard_alive").asBoolean()).as("%s", guard).isTrue();
        assertThat(guard.path("mode").asText()).isEqualTo("process");

        replication.shipper().stop(Duration.ofSeconds(20));
        awaitGone(guardPid, "the guard of a shipper that stopped cleanly");

        LeaseFile lease = LeaseFile.map(replication.leaseFile(), false);
        assertThat(lease.readShipper().state()).isEqualTo(LeaseState.RELEASED);
        assertThat(lease.readGuard().fence()).isEqualTo(FenceState.NOT_NEEDED);
        assertThat(replication.primary().show("default_transaction_read_only")).isEqualTo("off");
        assertThat(insert()).as("the primary takes writes").isNull();
        assertThat(replication.shipper().log()).doesNotContain("lease ran out");
    }

    @Test
    @Order(2)
    void aKilledShipperCutOffFromItsStandbyHasItsPrimaryFencedOnceTheLeaseRanOut() throws Exception {
        long startNs = System.nanoTime();
        replication.startShipper();
        replication.awaitSlotActive();
        long guardPid = awaitLeaseHeardFromTheStandby().path("guard_pid").asLong();
        LOG.info("rdmarepl ship started to the first renewal by its standby in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        try (Connection insisting = replication.primary().connect("postgres"); Statement writes = insisting.createStatement()) {
            writes.execute("SET default_transaction_read_only = off"); // an application that insists on writing
            assertThat(insert()).isNull();

            replication.shipper().kill(); // SIGKILL: nothing of the shipper renews or releases the lease
            long killedNs = System.nanoTime();
            replication.applier().kill(); // and no standby: the link is gone too
            assertThat(LeaseGuards.alive(guardPid)).as("the guard survives the shipper's SIGKILL").isTrue();

            // a write whose session the guard ends while fencing (57P01) is asked again, on a new session
            String refused = Await.until("the primary refuses a write", Duration.ofMillis(FENCED_WITHIN_MS + SLACK_MS), this::insert,
                    sqlState -> sqlState != null && !sqlState.equals(TERMINATED_BY_THE_FENCE));
            long refusedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
            LOG.info("the primary refused a write {} ms after the shipper's SIGKILL (fence.lease.ms {})", refusedMs, LEASE_MS);
            assertThat(refused).as("a read-only refusal").isEqualTo(READ_ONLY);
            assertThat(refusedMs).as("the lease was honoured: the last contact came at most 250 ms before the kill")
                    .isGreaterThanOrEqualTo(LEASE_MS - 250)
                    .isLessThanOrEqualTo(FENCED_WITHIN_MS + SLACK_MS);
            Await.until("the session that turned read-only off is ended", Duration.ofSeconds(5), () -> insisting.isValid(1), valid -> !valid);
        }

        awaitGone(guardPid, "the guard that fenced the primary");
        // only now: while the guard ends sessions, a new one may be ended too (57P01)
        assertThat(replication.primary().show("default_transaction_read_only")).isEqualTo("on");
        LeaseFile lease = LeaseFile.map(replication.leaseFile(), false);
        ShipperRecord shipper = lease.readShipper();
        GuardRecord guard = lease.readGuard();
        assertThat(shipper.state()).as("a SIGKILL releases nothing").isEqualTo(LeaseState.ARMED);
        assertThat(shipper.contact()).startsWith("standby");
        assertThat(guard.fence()).isEqualTo(FenceState.DONE);
        assertThat(guard.lapsedContactNs()).isEqualTo(shipper.lastContactNs());
        assertThat(replication.shipper().log()).contains("lease ran out: no word from a standby or the coordinator for")
                .contains("fenced: the primary is read-only now");
    }

    @Test
    @Order(3)
    void aRestartedShipperWithoutItsStandbyNeitherRenewsTheLeaseNorLiftsTheFence() throws Exception {
        LeaseFile lease = LeaseFile.map(replication.leaseFile(), false);
        ShipperRecord before = lease.readShipper();
        GuardRecord fenced = lease.readGuard();
        assertThat(fenced.fence()).as("where the last test left it").isEqualTo(FenceState.DONE);

        // the applier stays dead: its ring is still there, but nobody reads it or writes feedback
        replication.startShipper();
        JsonNode status = Await.until("the restarted shipper serves /status", Duration.ofSeconds(60), this::shipperStatus,
                s -> s != null && s.path("lease_guard").path("guard_alive").asBoolean());
        assertThat(status.path("state").asText()).as("%s", status).isEqualTo("fenced");
        assertThat(status.path("fenced_reason").asText()).startsWith("the lease guard fenced the primary before this shipper started");
        assertThat(status.path("self_fence").path("state").asText()).isEqualTo("done");
        long newGuardPid = status.path("lease_guard").path("guard_pid").asLong();
        assertThat(newGuardPid).as("the one that fenced is gone; the restart brought its own").isNotEqualTo(fenced.pid());

        // two leases long, on the new guard's own clock: a renewal, or another fence, would have come by now
        long watchingSinceNs = lease.readGuard().checkedNs();
        Await.until("the new guard watched for two leases", Duration.ofSeconds(30), lease::readGuard,
                g -> g.pid() == newGuardPid && g.checkedNs() - watchingSinceNs > TimeUnit.MILLISECONDS.toNanos(2 * LEASE_MS));
        ShipperRecord after = lease.readShipper();
        assertThat(after.lastContactNs()).as("no renewal without word from a standby or the coordinator").isEqualTo(before.lastContactNs());
        assertThat(after.state()).isEqualTo(LeaseState.ARMED);
        assertThat(after.pid()).isEqualTo(replication.shipper().pid());
        assertThat(lease.readGuard().attempts()).as("that lapse is fenced already: no second fence").isEqualTo(fenced.attempts());
        assertThat(replication.primary().show("default_transaction_read_only")).isEqualTo("on");
        assertThat(insert()).isEqualTo(READ_ONLY);

        replication.shipper().kill();
        awaitGone(newGuardPid, "the guard of a shipper that is gone, whose lease's lapse is fenced");
        assertThat(lease.readShipper().state()).isEqualTo(LeaseState.ARMED);
    }

    @Test
    @Order(4)
    void aShipperStartsShippingOnceTheFenceIsLiftedAndItsStandbyIsBack() throws Exception {
        replication.primary().execute("ALTER SYSTEM RESET default_transaction_read_only"); // no standby was promoted: writable again
        replication.primary().execute("SELECT pg_reload_conf()");
        LeaseFile lease = LeaseFile.map(replication.leaseFile(), false);
        long lapsedContactNs = lease.readGuard().lapsedContactNs();

        long startNs = System.nanoTime();
        replication.startApplier();
        replication.startShipper();
        replication.awaitSlotActive();
        JsonNode guard = awaitLeaseHeardFromTheStandby();
        LOG.info("shipper and applier started to the first renewal by the standby in {} ms", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        assertThat(shipperStatus().path("state").asText()).isEqualTo("streaming");
        assertThat(lease.readShipper().lastContactNs()).as("a new lease").isGreaterThan(lapsedContactNs);
        assertThat(guard.path("guard_alive").asBoolean()).isTrue();
        assertThat(replication.shipper().log()).contains("the lease guard fenced the primary before this shipper started, but it takes"
                + " writes again (default_transaction_read_only is off): the fence was lifted; shipping");
        replication.awaitCaughtUp();
        assertThat(insert()).isNull();
    }

    /** The shipper's lease_guard status once a standby's feedback renewed the lease. */
    private JsonNode awaitLeaseHeardFromTheStandby() {
        return Await.until("the shipper's lease renewed by its standby, its guard watching", Duration.ofSeconds(60),
                () -> shipperStatus().path("lease_guard"),
                g -> g.path("guard_alive").asBoolean() && "armed".equals(g.path("lease_state").asText())
                        && g.path("last_contact").asText().startsWith("standby"));
    }

    private void awaitGone(long pid, String what) {
        Await.until(what + " (pid " + pid + ") exits", Duration.ofSeconds(20), () -> LeaseGuards.alive(pid), alive -> !alive);
    }

    /** One row in a session of its own: null when it is written, else the SQLState of the refusal. */
    private String insert() {
        try (Connection c = replication.primary().connect("postgres"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO lease_writes VALUES (" + nextId.incrementAndGet() + ")");
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    private JsonNode shipperStatus() throws Exception {
        String url = replication.shipper().statusUrl();
        if (url == null) {
            return null;
        }
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(answer.body());
    }
}
