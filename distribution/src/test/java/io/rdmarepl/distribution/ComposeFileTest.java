package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.distribution.ComposeFile.Service;
import java.net.URI;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docker-compose.yml} without a Docker engine (none on the development machine or in CI): every service is
 * complete (image or build, profiles, health check, ports), every config it mounts exists under {@code config/} and
 * loads through the real loader, and the topology the configs describe is the one compose runs: rings, admin
 * endpoints, members, secrets and ports agree.
 */
class ComposeFileTest {
    private static final Set<String> PROFILES = Set.of("softrdma", "zookeeper", "rdma", "bench");

    private final ComposeFile compose = ComposeFile.load();

    @Test
    void shouldGiveEveryServiceAnImageProfilesAHealthCheckAndPorts() {
        assertThat(compose.services()).isNotEmpty();
        for (Service service : compose.services()) {
            String name = service.name();
            assertThat(service.body().get("image") != null || service.body().get("build") != null).as("%s: image or build", name).isTrue();
            assertThat(service.profiles()).as("%s: profiles", name).isNotEmpty().allSatisfy(p -> assertThat(PROFILES).contains(p));
            assertThat(service.healthcheck()).as("%s: healthcheck", name).isNotEmpty();
            if (Boolean.TRUE.equals(service.healthcheck().get("disable"))) {
                assertThat(service.command()).as("%s: only the bench client (it serves nothing) goes without a health check", name)
                        .startsWith("bench");
                continue;
            }
            assertThat(ComposeFile.strings(service.healthcheck().get("test"))).as("%s: healthcheck test", name).hasSizeGreaterThan(1);
            if (service.hostNetwork()) {
                assertThat(service.expose()).as("%s: on the host network, expose lists the ports it listens on", name).isNotEmpty();
            } else {
                assertThat(service.ports()).as("%s: ports", name).isNotEmpty()
                        .allSatisfy(p -> assertThat(p).as("%s publishes on the loopback only", name).startsWith("127.0.0.1:"));
            }
        }
    }

    @Test
    void shouldMountOnlyExistingConfigsThatTheRealLoadersAccept() {
        List<Service> roles = roles();
        assertThat(roles).extracting(Service::role).contains(Role.SHIPPER, Role.APPLIER, Role.COORDINATOR);
        for (Service service : compose.services()) {
            service.configMounts().forEach((target, file) -> {
                assertThat(Files.isRegularFile(file)).as("%s mounts %s", service.name(), file).isTrue();
                assertThat(target).as("%s: configs go under /etc/rdmarepl", service.name()).startsWith("/etc/rdmarepl/");
                assertThat(service.volumes()).as("%s: configs are mounted read-only", service.name())
                        .anyMatch(v -> v.startsWith("./config/") && v.contains(target) && v.endsWith(":ro"));
            });
        }
        for (Service service : roles) {
            assertThat(service.config()).as("%s: --config names a file mounted from config/", service.name()).isPresent();
            Role fileRole = Role.ofFileName(service.config().get());
            assertThat(fileRole).as("%s runs rdmarepl %s with %s", service.name(), service.role().command(), service.config().get())
                    .isEqualTo(service.role());
            service.role().load(service.config().get());
        }
    }

    @Test
    void shouldCheckHealthOnTheAdminPortOfEachRolesConfig() {
        for (Service service : roles()) {
            int port = adminPort(service);
            List<String> test = ComposeFile.strings(service.healthcheck().get("test"));
            assertThat(test).as("%s: healthcheck", service.name()).contains("http://127.0.0.1:" + port + "/health");
            assertThat(service.environment()).as("%s: RDMAREPL_ADMIN_PORT (the image's HEALTHCHECK)", service.name())
                    .containsEntry("RDMAREPL_ADMIN_PORT", Integer.toString(port));
            if (service.hostNetwork()) {
                assertThat(service.expose()).as("%s: expose", service.name()).contains(Integer.toString(port));
            } else {
                assertThat(adminHost(service)).as("%s: admin endpoint reachable from the other containers", service.name()).isEqualTo("0.0.0.0");
                assertThat(service.publishes(port)).as("%s publishes its admin port %d", service.name(), port).isTrue();
            }
        }
    }

    @Test
    void shouldPointEveryShipperAtAnAppliersRingInItsProfile() {
        for (Service shipper : roles(Role.SHIPPER)) {
            Properties p = shipper.properties();
            for (String standby : p.getProperty("standbys").split(",")) {
                URI ring = URI.create(p.getProperty("standby." + standby.trim() + ".uri"));
                Service applier = applierListeningAt(shipper, ring);
                assertThat(applier.properties().getProperty("source.name")).as("%s ships %s to %s, which must apply that source",
                        shipper.name(), p.getProperty("source.name"), applier.name()).isEqualTo(p.getProperty("source.name"));
                assertThat(ring.getScheme()).as("%s: transport", shipper.name())
                        .isEqualTo(shipper.profiles().contains("rdma") ? "rdma" : "softrdma");
            }
        }
        for (Service applier : roles(Role.APPLIER)) {
            assertThat(applier.properties().getProperty("ring.uri")).as("%s: shm:// needs one /dev/shm for both containers", applier.name())
                    .doesNotStartWith("shm:");
            if (!applier.hostNetwork()) {
                int port = URI.create(applier.properties().getProperty("ring.uri")).getPort();
                assertThat(applier.expose()).as("%s exposes its ring port", applier.name()).contains(Integer.toString(port));
            }
        }
    }

    @Test
    void shouldLetEveryShipperSeeThePostmasterOfItsPrimary() {
        for (Service shipper : roles(Role.SHIPPER)) {
            String member = shipper.name().startsWith("shipper-a") ? "pg-a" : "pg-b";
            assertThat(shipper.body().get("pid")).as("%s shares the PID namespace of %s (the postmaster watch)", shipper.name(), member)
                    .isEqualTo("service:" + member);
            assertThat(compose.services()).as("%s names a service that exists", shipper.name()).extracting(Service::name).contains(member);
        }
    }

    @Test
    void shouldNameBothRolesOfEveryMemberInEachCoordinator() {
        List<Service> coordinators = roles(Role.COORDINATOR);
        assertThat(coordinators).isNotEmpty();
        for (Service coordinator : coordinators) {
            Properties c = coordinator.properties();
            List<String> members = Arrays.stream(c.getProperty("members").split(",")).map(String::trim).toList();
            assertThat(members).as("%s: members", coordinator.name()).hasSizeGreaterThanOrEqualTo(2).contains(c.getProperty("initial.primary"));
            for (String member : members) {
                String what = coordinator.name() + ", member " + member;
                Service server = postgresAt(jdbc(c.getProperty("member." + member + ".jdbc.url")), coordinator);
                Service shipper = roleAt(URI.create(c.getProperty("member." + member + ".shipper.admin")), coordinator, Role.SHIPPER);
                Service applier = roleAt(URI.create(c.getProperty("member." + member + ".applier.admin")), coordinator, Role.APPLIER);
                Properties s = shipper.properties();
                assertThat(s.getProperty("source.name")).as("%s: its shipper %s", what, shipper.name()).isEqualTo(member);
                assertThat(postgresAt(URI.create("postgresql://" + s.getProperty("database.host") + ":"
                        + s.getProperty("database.port", "5432")), shipper).name()).as("%s: %s captures", what, shipper.name()).isEqualTo(server.name());
                assertThat(postgresAt(jdbc(applier.properties().getProperty("replica.jdbc.url")), applier).name())
                        .as("%s: %s applies into", what, applier.name()).isEqualTo(server.name());
                assertThat(members).as("%s: %s follows a member", what, applier.name()).contains(applier.properties().getProperty("source.name"));
                assertThat(applier.properties().getProperty("source.name")).as("%s: %s follows another member", what, applier.name())
                        .isNotEqualTo(member);
            }
            assertThat(c.getProperty("roles.admin.token")).as("%s: roles.admin.token", coordinator.name()).isNotEmpty();
            for (Service role : roles()) {
                if (role.role() != Role.COORDINATOR && role.sharesProfileWith(coordinator)) {
                    assertThat(role.properties().getProperty("admin.token")).as("%s: admin.token = %s's roles.admin.token", role.name(),
                            coordinator.name()).isEqualTo(c.getProperty("roles.admin.token"));
                }
            }
        }
    }

    @Test
    void shouldUseThePostgresPasswordOfComposeInEveryConfig() {
        Set<String> passwords = compose.services().stream().filter(ComposeFileTest::isPostgres)
                .map(s -> s.environment().get("POSTGRES_PASSWORD")).collect(Collectors.toSet());
        assertThat(passwords).hasSize(1);
        String password = passwords.iterator().next();
        for (Service role : roles()) {
            String key = role.role() == Role.APPLIER ? "replica.password" : "database.password";
            assertThat(role.properties().getProperty(key)).as("%s: %s", role.name(), key).isEqualTo(password);
        }
        Service bench = compose.service("bench").orElseThrow();
        assertThat(bench.command()).filteredOn(a -> a.startsWith("jdbc:")).allSatisfy(url -> assertThat(url).contains("password=" + password));
    }

    @Test
    void shouldGiveRdmaRolesTheDevicesAndUnlimitedLockedMemory() {
        List<Service> rdma = roles().stream().filter(s -> s.profiles().contains("rdma") && s.role() != Role.COORDINATOR).toList();
        assertThat(rdma).extracting(Service::role).contains(Role.SHIPPER, Role.APPLIER);
        for (Service service : rdma) {
            String name = service.name();
            assertThat(service.profiles()).as(name).containsExactly("rdma");
            assertThat(service.hostNetwork()).as("%s: host network", name).isTrue();
            assertThat(ComposeFile.strings(service.body().get("devices"))).as("%s: devices", name).contains("/dev/infiniband:/dev/infiniband");
            assertThat(ComposeFile.strings(service.body().get("cap_add"))).as("%s: cap_add", name).contains("IPC_LOCK");
            assertThat(ComposeFile.map(ComposeFile.map(service.body().get("ulimits")).get("memlock")))
                    .as("%s: memlock unlimited", name).containsEntry("soft", -1).containsEntry("hard", -1);
            assertThat(ComposeFile.map(service.body().get("build")).get("target")).as("%s: image with libdisni and rdma-core", name).isEqualTo("rdma");
        }
        for (Service service : compose.services()) {
            if (!service.profiles().contains("rdma") || isPostgres(service)) {
                continue;
            }
            assertThat(service.profiles()).as("%s: the rdma profile's services are its own", service.name()).containsExactly("rdma");
        }
        for (Service service : compose.services()) {
            if (!service.profiles().contains("rdma")) {
                assertThat(service.body()).as("%s: no RDMA devices outside the rdma profile", service.name()).doesNotContainKey("devices");
            }
        }
    }

    @Test
    void shouldRunOneKindOfCoordinatorPerProfileAndAZooKeeperEnsembleOfThree() {
        for (String profile : PROFILES) {
            Set<String> stores = roles(Role.COORDINATOR).stream().filter(s -> s.profiles().contains(profile))
                    .map(s -> s.properties().getProperty("state.store", "file")).collect(Collectors.toSet());
            assertThat(stores).as("state stores of the coordinators in profile %s", profile).hasSizeLessThanOrEqualTo(1);
            long fileCoordinators = roles(Role.COORDINATOR).stream().filter(s -> s.profiles().contains(profile))
                    .filter(s -> s.properties().getProperty("state.store", "file").equals("file")).count();
            assertThat(fileCoordinators).as("file-store coordinators in profile %s (a file has one writer)", profile).isLessThanOrEqualTo(1);
        }
        List<Service> ensemble = compose.services().stream().filter(s -> String.valueOf(s.body().get("image")).startsWith("zookeeper:")).toList();
        assertThat(ensemble).hasSize(3).allSatisfy(zk -> assertThat(zk.profiles()).containsExactly("zookeeper"));
        Set<String> servers = ensemble.stream().map(zk -> zk.name() + ":2181").collect(Collectors.toSet());
        List<Service> coordinators = roles(Role.COORDINATOR).stream().filter(s -> s.profiles().contains("zookeeper")).toList();
        assertThat(coordinators).hasSizeGreaterThanOrEqualTo(2);
        assertThat(coordinators.stream().map(s -> s.body().get("hostname")).distinct()).as("distinct host names: the election's names")
                .hasSize(coordinators.size());
        for (Service coordinator : coordinators) {
            Properties c = coordinator.properties();
            assertThat(c.getProperty("state.store")).isEqualTo("zookeeper");
            assertThat(Set.of(c.getProperty("zookeeper.connect").split(","))).as("%s: zookeeper.connect", coordinator.name()).isEqualTo(servers);
        }
    }

    @Test
    void shouldStartBothPostgresServersWithLogicalDecoding() {
        List<Service> servers = compose.services().stream().filter(ComposeFileTest::isPostgres).toList();
        assertThat(servers).hasSize(2);
        for (Service server : servers) {
            assertThat(String.join(" ", server.command())).as(server.name()).contains("wal_level=logical");
            assertThat(server.containerPortPublishedAt(server.ports().isEmpty() ? -1
                    : Integer.parseInt(server.ports().get(0).split(":")[1]))).as("%s publishes 5432", server.name()).isEqualTo(5432);
        }
    }

    @Test
    void shouldRunTheLagBenchAgainstBothServers() {
        Service bench = compose.service("bench").orElseThrow();
        List<String> command = bench.command();
        assertThat(command).startsWith("bench", "lag").contains("--primary", "--replica");
        Service primary = postgresAt(jdbc(command.get(command.indexOf("--primary") + 1)), bench);
        Service replica = postgresAt(jdbc(command.get(command.indexOf("--replica") + 1)), bench);
        assertThat(primary.name()).isNotEqualTo(replica.name());
        assertThat(ComposeFile.map(bench.body().get("depends_on"))).containsKeys(primary.name(), replica.name());
        assertThat(primary.profiles()).contains("bench");
        assertThat(replica.profiles()).contains("bench");
    }

    @Test
    void shouldBuildOnlyTargetsTheDockerfileHas() {
        Set<String> stages = Dockerfile.load().stages();
        for (Service service : compose.services()) {
            Object target = ComposeFile.map(service.body().get("build")).get("target");
            if (target != null) {
                assertThat(stages).as("%s: build target", service.name()).contains(String.valueOf(target));
            }
        }
    }

    // ---- resolution of the names and ports the configs use to the services compose runs

    private List<Service> roles() {
        return compose.services().stream().filter(s -> s.role() != null).toList();
    }

    private List<Service> roles(Role role) {
        return compose.services().stream().filter(s -> s.role() == role).toList();
    }

    private static boolean isPostgres(Service service) {
        return String.valueOf(service.body().get("image")).startsWith("postgres:");
    }

    private static URI jdbc(String url) {
        assertThat(url).startsWith("jdbc:postgresql://");
        return URI.create(url.substring("jdbc:".length()));
    }

    /** The PostgreSQL service {@code from} reaches at {@code uri}'s host and port. */
    private Service postgresAt(URI uri, Service from) {
        if (from.hostNetwork()) {
            assertThat(uri.getHost()).as("%s on the host network reaches PostgreSQL on the loopback", from.name()).isEqualTo("127.0.0.1");
            return compose.services().stream().filter(ComposeFileTest::isPostgres).filter(s -> s.containerPortPublishedAt(uri.getPort()) == 5432)
                    .findFirst().orElseThrow(() -> new AssertionError(from.name() + ": no PostgreSQL published at " + uri));
        }
        Service server = compose.service(uri.getHost()).orElseThrow(() -> new AssertionError(from.name() + ": no service " + uri.getHost()));
        assertThat(isPostgres(server)).as("%s: %s is a PostgreSQL server", from.name(), uri).isTrue();
        assertThat(uri.getPort()).as("%s: %s", from.name(), uri).isEqualTo(5432);
        assertThat(server.sharesProfileWith(from)).as("%s and %s share a profile", from.name(), server.name()).isTrue();
        return server;
    }

    /** The service running {@code role} whose admin endpoint is at {@code admin}, as {@code from} reaches it. */
    private Service roleAt(URI admin, Service from, Role role) {
        List<Service> candidates = roles(role).stream().filter(s -> s.sharesProfileWith(from)).filter(s -> adminPort(s) == admin.getPort())
                .filter(s -> from.hostNetwork() ? s.hostNetwork() && "127.0.0.1".equals(admin.getHost()) : s.name().equals(admin.getHost()))
                .toList();
        assertThat(candidates).as("%s: the %s at %s", from.name(), role.command(), admin).hasSize(1);
        return candidates.get(0);
    }

    /** The applier whose ring listens where {@code shipper} writes: {@code ring}'s host is its service or an extra_hosts alias. */
    private Service applierListeningAt(Service shipper, URI ring) {
        List<Service> candidates = roles(Role.APPLIER).stream().filter(a -> a.sharesProfileWith(shipper)).filter(a -> {
            URI listen = URI.create(a.properties().getProperty("ring.uri"));
            if (listen.getPort() != ring.getPort() || !listen.getScheme().equals(ring.getScheme())) {
                return false;
            }
            if (shipper.hostNetwork()) {
                return shipper.extraHosts().containsKey(ring.getHost()) && listen.getHost().equals(ring.getHost())
                        && a.extraHosts().equals(shipper.extraHosts());
            }
            return a.name().equals(ring.getHost()) && listen.getHost().equals("0.0.0.0");
        }).toList();
        assertThat(candidates).as("%s: the applier whose ring listens at %s", shipper.name(), ring).hasSize(1);
        return candidates.get(0);
    }

    private static int adminPort(Service service) {
        Properties p = service.properties();
        return switch (service.role()) {
            case APPLIER -> Integer.parseInt(p.getProperty("admin.port", "9472"));
            case SHIPPER -> URI.create("http://" + p.getProperty("admin.address", "127.0.0.1:7480")).getPort();
            case COORDINATOR -> URI.create("http://" + p.getProperty("admin.address", "127.0.0.1:7490")).getPort();
        };
    }

    private static String adminHost(Service service) {
        Properties p = service.properties();
        return switch (service.role()) {
            case APPLIER -> p.getProperty("admin.bind", "127.0.0.1");
            case SHIPPER -> URI.create("http://" + p.getProperty("admin.address", "127.0.0.1:7480")).getHost();
            case COORDINATOR -> URI.create("http://" + p.getProperty("admin.address", "127.0.0.1:7490")).getHost();
        };
    }
}
