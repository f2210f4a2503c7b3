package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code packaging/systemd/rdmarepl-<role>.service}: restarted on failure, memlock unlimited, own user, --config from config/. */
class SystemdUnitsTest {
    static final Path UNITS = RepositoryFiles.ROOT.resolve("packaging/systemd");

    @ParameterizedTest
    @EnumSource(Role.class)
    void shouldRunTheRoleUnderItsOwnUserWithRestartAndUnlimitedMemlock(Role role) {
        Path unit = UNITS.resolve("rdmarepl-" + role.name().toLowerCase(java.util.Locale.ROOT) + ".service");
        assertThat(Files.isRegularFile(unit)).as("%s", unit).isTrue();
        Map<String, List<String>> service = section(RepositoryFiles.read(unit), "Service");
        assertThat(service.get("User")).as("User=").containsExactly("rdmarepl");
        assertThat(service.get("Restart")).as("Restart=").containsExactly("on-failure");
        assertThat(service.get("LimitMEMLOCK")).as("LimitMEMLOCK=").containsExactly("infinity");
        assertThat(service.get("ExecStart")).as("ExecStart=").hasSize(1);
        String[] exec = service.get("ExecStart").get(0).split("\\s+");
        assertThat(exec).as("ExecStart=").hasSize(4);
        assertThat(exec[0]).isEqualTo("/opt/rdmarepl/bin/rdmarepl");
        assertThat(exec[1]).isEqualTo(role.command());
        assertThat(exec[2]).isEqualTo("--config");
        assertThat(exec[3]).startsWith("/etc/rdmarepl/");
        Path example = RepositoryFiles.CONFIG.resolve(exec[3].substring("/etc/rdmarepl/".length()));
        assertThat(Files.isRegularFile(example)).as("the archive ships %s as an example of %s", example, exec[3]).isTrue();
        assertThat(Role.ofFileName(example)).isEqualTo(role);
        assertThat(section(RepositoryFiles.read(unit), "Install").get("WantedBy")).containsExactly("multi-user.target");
    }

    @org.junit.jupiter.api.Test
    void shouldRunTheLeaseGuardOnTheShippersConfigAsAUnitOfItsOwnThatTheShipperWants() {
        String guard = RepositoryFiles.read(UNITS.resolve("rdmarepl-lease-guard.service"));
        Map<String, List<String>> service = section(guard, "Service");
        assertThat(service.get("ExecStart")).containsExactly("/opt/rdmarepl/bin/rdmarepl lease-guard --config /etc/rdmarepl/shipper.properties");
        assertThat(service.get("User")).containsExactly("rdmarepl");
        assertThat(service.get("Restart")).as("a guard that is gone guards nothing").containsExactly("always");
        assertThat(section(guard, "Unit").get("Before")).containsExactly("rdmarepl-shipper.service");
        Map<String, List<String>> shipper = section(RepositoryFiles.read(UNITS.resolve("rdmarepl-shipper.service")), "Unit");
        assertThat(String.join(" ", shipper.get("Wants"))).contains("rdmarepl-lease-guard.service");
        assertThat(String.join(" ", shipper.get("After"))).contains("rdmarepl-lease-guard.service");
        assertThat(section(guard, "Install").get("WantedBy")).containsExactly("multi-user.target");
    }

    /** key -> values of one [section] of a unit file. */
    private static Map<String, List<String>> section(String unit, String name) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        String current = null;
        for (String line : unit.lines().map(String::strip).toList()) {
            if (line.startsWith("[")) {
                current = line.substring(1, line.length() - 1);
            } else if (name.equals(current) && !line.isEmpty() && !line.startsWith("#") && line.contains("=")) {
                values.computeIfAbsent(line.substring(0, line.indexOf('=')), k -> new ArrayList<>()).add(line.substring(line.indexOf('=') + 1));
            }
        }
        return values;
    }
}
