package io.rdmarepl.coordinator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigTable;
import io.rdmarepl.testsupport.ExampleConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every key has a default and a row in docs/configuration/coordinator.md; bad values are all listed at once, secrets masked. */
class CoordinatorConfigTest {

    @Test
    void shouldLoadTheExampleConfigurations() {
        List<Path> files = ExampleConfigs.named("coordinator.properties", "coordinator-zookeeper.properties");
        assertThat(files).as("config/ and config/rdma/ coordinator examples").hasSize(3);
        for (Path file : files) {
            assertThat(CoordinatorConfig.load(ExampleConfigs.read(file))).as(file.toString()).isNotNull();
        }
    }

    @Test
    void minimalConfigurationGetsDefaults() {
        CoordinatorConfig config = CoordinatorConfig.load(minimal());
        assertThat(config.detectHeartbeat().toMillis()).isEqualTo(20);
        assertThat(config.detectProbeFailures()).isEqualTo(2);
        assertThat(config.stateStore()).isEqualTo("file");
        assertThat(config.member("pgb").orElseThrow().applierAdmin()).isPresent();
    }

    @Test
    void everyProblemIsListedWithItsKeyAndSecretsAreMasked() {
        Properties p = minimal();
        p.setProperty("detect.heartbeat.ms", "soon");
        p.setProperty("initial.primary", "pgz");
        p.setProperty("state.store", "zookeeper");
        p.setProperty("admin.token", "s3cret");
        p.setProperty("member.pgb.applier.admin", "ftp://x");
        p.setProperty("detect.heartbeat", "20");
        assertThatThrownBy(() -> CoordinatorConfig.load(p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("detect.heartbeat.ms=soon: must be a whole number")
                .hasMessageContaining("initial.primary=pgz: must be one of members [pga, pgb]")
                .hasMessageContaining("zookeeper.connect=: required with state.store=zookeeper")
                .hasMessageContaining("member.pgb.applier.admin=ftp://x: must be http://host:port")
                .hasMessageContaining("detect.heartbeat: unknown key")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void shouldRefuseALeaseShorterThanDetectionPlusARenewalNamingTheKeys() {
        assertThat(CoordinatorConfig.load(minimal()).fenceLease().toMillis()).isEqualTo(2000);
        Properties p = minimal();
        p.setProperty("fence.lease.ms", "500");
        assertThatThrownBy(() -> CoordinatorConfig.load(p)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence.lease.ms=500: must be 0 (the shippers run no lease) or at least 660 ms")
                .hasMessageContaining("detect.heartbeat.ms 20")
                .hasMessageContaining("detect.probe.failures 2 x (detect.probe.timeout.ms 25 + detect.interval.ms 5) = 60 ms");
        p.setProperty("fence.lease.ms", "660");
        assertThat(CoordinatorConfig.load(p).fenceLease().toMillis()).isEqualTo(660);
        p.setProperty("detect.heartbeat.ms", "1000");
        assertThatThrownBy(() -> CoordinatorConfig.load(p)).as("slower detection needs a longer lease")
                .hasMessageContaining("fence.lease.ms=660: must be 0 (the shippers run no lease) or at least 1600 ms");
        p.setProperty("fence.lease.ms", "0");
        assertThat(CoordinatorConfig.load(p).fenceLease()).isZero();
        assertThat(CoordinatorConfig.load(p).describe()).contains("lease=none");
    }

    @Test
    void itsDocumentationPageHoldsTheTableOfItsKeys() throws Exception {
        Path page = Path.of("..").resolve(CoordinatorKeys.ALL.page());
        assertThat(ConfigTable.verify(page, CoordinatorKeys.ALL, Boolean.getBoolean("rdmarepl.docs.update")))
                .as("%s against CoordinatorKeys (run with -Drdmarepl.docs.update=true to rewrite its table)", page).isEmpty();
    }

    @Test
    void aFileIsNamedInItsProblemsAndItsPasswordMayComeFromAnotherFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("database-password"), "s3cret\n");
        Path file = Files.writeString(dir.resolve("coordinator.properties"), "members=pga,pgb\n"
                + "member.pga.jdbc.url=jdbc:postgresql://10.0.0.1:5432/app\nmember.pgb.jdbc.url=postgresql://10.0.0.2/app\n"
                + "database.password=${file:database-password}\nroles.admin.token=${file:missing-token}\n");
        assertThatThrownBy(() -> CoordinatorConfig.load(file)).isInstanceOf(ConfigException.class).hasMessage(file + ": 2 problems:\n"
                + "  member.pgb.jdbc.url=postgresql://10.0.0.2/app: must be a jdbc:postgresql:// URL\n"
                + "  roles.admin.token=${file:missing-token}: cannot read " + dir.toAbsolutePath().resolve("missing-token")
                + ": it does not exist");
        Files.writeString(file, Files.readString(file).replace("postgresql://10.0.0.2", "jdbc:postgresql://10.0.0.2")
                .replace("roles.admin.token=${file:missing-token}\n", ""));
        assertThat(CoordinatorConfig.load(file).databasePassword()).isEqualTo("s3cret");
    }

    private static Properties minimal() {
        Properties p = new Properties();
        p.setProperty("members", "pga,pgb");
        p.setProperty("member.pga.jdbc.url", "jdbc:postgresql://10.0.0.1:5432/app");
        p.setProperty("member.pgb.jdbc.url", "jdbc:postgresql://10.0.0.2:5432/app");
        p.setProperty("member.pgb.applier.admin", "http://10.0.0.2:9472");
        p.setProperty("initial.primary", "pga");
        return p;
    }
}
