package io.rdmarepl.cli.coordinate;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rdmarepl.cli.admin.AdminServer;
import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.roles.HttpRoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's requests to the roles, run before it starts until the JIT has compiled them: {@link HttpRoleClient}
 * asks an {@link AdminServer} of this process on a loopback port what it asks the roles during a failover
 * ({@code POST /fence}, {@code /drain}, {@code /promote}, {@code /lease}, {@code GET /status}), and that server answers
 * as the roles' admin servers do.
 *
 * <p>A coordinator that has run for a minute has compiled this path: its lease renewals and standby watches take it
 * several times a second. One that fails over soon after it started (the host-per-role failover benchmark, every trial;
 * a production coordinator restarted for an upgrade) ran it interpreted and compiled the JDK's HTTP client and server
 * code inside the clients' outage, on the standby host's CPU: 7 to 23 ms of that CPU per failover
 * ({@code rdmarepl bench failover --layout hosts}, 2026-12-07). {@link io.rdmarepl.coordinator.machine.FailoverRehearsal}
 * plays the failover's own code; this plays the transport under it. Nothing leaves the process.
 */
final class RoleRequestWarmup {
    /** Past the C1 compiler's threshold (200 calls) for the methods every request runs, and then some. */
    static final int REQUESTS = 300;
    private static final String TOKEN = "warmup";
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** In turn; {@code /status} is a GET, the others POSTs. */
    private static final String[] ROUTES = {ShipperRoutes.LEASE, ShipperRoutes.FENCE, ApplierRoutes.DRAIN, ApplierRoutes.PROMOTE,
        ApplierRoutes.STATUS};

    private RoleRequestWarmup() {
    }

    /**
     * @return what it did, e.g. "warmed the requests to the roles with 300 loopback requests in 412 ms"
     */
    static String run(int requests) {
        long startNs = System.nanoTime();
        int answered = 0;
        try (AdminServer roles = rolesAnswering()) {
            URI admin = URI.create("http://" + roles.address().getHostString() + ":" + roles.address().getPort());
            HttpRoleClient client = new HttpRoleClient(TOKEN);
            for (; answered < requests; answered++) {
                String route = ROUTES[answered % ROUTES.length];
                if (route.equals(ApplierRoutes.STATUS)) {
                    client.status(admin, TIMEOUT);
                } else {
                    client.post(admin, route, "", TIMEOUT);
                }
            }
        } catch (RoleException | UncheckedIOException e) {
            return "warmed the requests to the roles with " + answered + " of " + requests + " loopback requests, then: "
                    + e.getMessage();
        }
        return "warmed the requests to the roles with " + answered + " loopback requests in "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) + " ms";
    }

    /** Answers shaped as the roles' own (their fields, not their values: the JSON parser's path is what warms). */
    private static AdminServer rolesAnswering() {
        AdminServer server = new AdminServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), TOKEN,
                () -> true, () -> Map.of("state", "following", "applied_lsn", "0/3000060", "last_message_age_ms", 3L),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        server.control(ShipperRoutes.LEASE, body -> Map.of("replication_mode", "async", "acknowledged_lsn", "0/3000000",
                "lease_ms", 2000L, "lease_check_ms", 100L, "self_fence_timeout_ms", 2000L));
        server.control(ShipperRoutes.FENCE, body -> Map.of("state", "fenced"));
        server.control(ApplierRoutes.DRAIN, body -> Map.of("applied_lsn", "0/3000060"));
        server.control(ApplierRoutes.PROMOTE, body -> Map.of("state", "promoted", "applied_lsn", "0/3000060",
                "sequences", Map.of()));
        return server.start();
    }
}
