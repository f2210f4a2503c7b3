package io.rdmarepl.applier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.config.Activation;
import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigTable;
import io.rdmarepl.testsupport.ExampleConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplierConfigTest {

    @Test
    void shouldLoadTheExampleConfigurations() {
        List<Path> files = ExampleConfigs.named("applier.properties", "reverse-applier.properties");
        assertThat(files).as("config/ and config/rdma/ applier examples").hasSize(4);
        for (Path file : files) {
            assertThat(ApplierConfig.load(file)).as(file.toString()).isNotNull();
        }
    }

    @Test
    void shouldLoadEveryDefault() {
        ApplierConfig config = ApplierConfig.load(new Properties());
        assertThat(config.batchMaxRows()).isEqualTo(500);
        assertThat(config.groupMaxMs()).isEqualTo(20);
        assertThat(config.ringUri().text()).isEqualTo("shm:///dev/shm/rdmarepl-standby");
        assertThat(config.synchronousCommit()).isEqualTo("off");
        assertThat(config.activation()).isEqualTo(Activation.IMMEDIATE);
        assertThat(config.printable()).containsOnlyKeys(ApplierKeys.ALL.keys().stream().map(ConfigKey::name).toList());
    }

    @Test
    void shouldRefuseParallelApplyWhereTriggersFire() {
        assertThat(ApplierConfig.of("apply.workers", "4").applyWorkers()).isEqualTo(4);
        assertThat(ApplierConfig.of().applyWorkers()).isEqualTo(1);
        assertThatThrownBy(() -> ApplierConfig.of("apply.workers", "4", "replica.session.replication.role", "origin"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "apply.workers=4: needs replica.session.replication.role=replica (with origin, triggers and"
                                + " foreign keys fire and may read rows another connection is still writing)"));
        assertThatThrownBy(() -> ApplierConfig.of("apply.workers", "65"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "apply.workers=65: must be between 1 and 64"));
    }

    @Test
    void shouldApplyACopysChunksOnTheCopyWorkersOnlyWhereTriggersDoNotFire() {
        assertThat(ApplierConfig.of().parallelWorkers()).as("the default: a copy on 2 connections").isEqualTo(2);
        assertThat(ApplierConfig.of("apply.copy.workers", "1").parallelWorkers()).isEqualTo(1);
        assertThat(ApplierConfig.of("apply.workers", "3", "apply.copy.workers", "5").parallelWorkers())
                .as("apply.workers above 1 serve the copy too").isEqualTo(3);
        assertThat(ApplierConfig.of("replica.session.replication.role", "origin").parallelWorkers())
                .as("with origin, triggers fire: one connection").isEqualTo(1);
        assertThatThrownBy(() -> ApplierConfig.of("apply.copy.workers", "3", "replica.session.replication.role", "origin"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "apply.copy.workers=3: needs replica.session.replication.role=replica (with origin, triggers fire"
                                + " and may read rows another connection is still writing)"));
        assertThatThrownBy(() -> ApplierConfig.of("apply.copy.workers", "0"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "apply.copy.workers=0: must be between 1 and 64"));
    }

    @Test
    void shouldReportEveryBadKeyAtOnceWithValueAndRule() {
        Properties p = new Properties();
        p.setProperty("apply.batch.max.rows", "0");
        p.setProperty("apply.group.max.ms", "soon");
        p.setProperty("ring.capacity.bytes", "5000");
        p.setProperty("ring.uri", "ftp://x");
        p.setProperty("apply.synchronous.commit", "maybe");
        p.setProperty("replica.jdbc.url", "jdbc:mysql://x");
        p.setProperty("apply.bach.max.rows", "10");
        p.setProperty("apply.retry.initial.ms", "900");
        p.setProperty("apply.retry.max.ms", "100");
        assertThatThrownBy(() -> ApplierConfig.load(p))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactlyInAnyOrder(
                        "apply.batch.max.rows=0: must be between 1 and 100000",
                        "apply.group.max.ms=soon: must be a whole number between 0 and 60000",
                        "ring.capacity.bytes=5000: must be a power of two between 4096 and 1073741824",
                        "ring.uri=ftp://x: channel URI 'ftp://x' has unknown scheme 'ftp': use shm:///path, rdma://host:port or softrdma://host:port",
                        "apply.synchronous.commit=maybe: must be one of off, local, remote_write, on, remote_apply",
                        "replica.jdbc.url=jdbc:mysql://x: must start with jdbc:postgresql:",
                        "apply.retry.max.ms=100: must be at least apply.retry.initial.ms (900)",
                        "apply.bach.max.rows: unknown key (did you mean apply.batch.max.rows?)"))
                .hasMessageStartingWith("applier configuration: 8 problems:\n  ");
    }

    @Test
    void shouldReadActivationAndNameTheKeyOfABadValue() {
        assertThat(ApplierConfig.of("activation", "on-request").activation()).isEqualTo(Activation.ON_REQUEST);
        assertThat(ApplierConfig.of("activation", " On-Request ").activation()).isEqualTo(Activation.ON_REQUEST);
        assertThatThrownBy(() -> ApplierConfig.of("activation", "later"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly("activation=later: must be one of immediate, on-request"));
    }

    @Test
    void shouldCreateTheRingAtAnotherEpochKeepingEverythingElse() {
        ApplierConfig config = ApplierConfig.of("activation", "on-request", "ring.epoch", "2", "admin.token", "t0ken");
        ApplierConfig moved = config.withRingEpoch(7);
        assertThat(moved.ringEpoch()).isEqualTo(7);
        assertThat(moved.describe()).contains("ring.epoch=7", "admin.token=****").doesNotContain("t0ken");
        assertThat(moved).usingRecursiveComparison().ignoringFields("ringEpoch", "printable").isEqualTo(config);
        assertThatThrownBy(() -> config.withRingEpoch(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("epoch");
    }

    @Test
    void shouldMaskThePasswordInErrorsAndInTheResolvedConfiguration() {
        ApplierConfig config = ApplierConfig.of("replica.password", "s3cret", "admin.token", "t0ken");
        assertThat(config.describe()).contains("replica.password=****", "admin.token=****").doesNotContain("s3cret", "t0ken");
        assertThat(config.toString()).doesNotContain("s3cret");
        assertThat(config.replicaPassword()).isEqualTo("s3cret");
    }

    @Test
    void shouldNameTheFileItReadInEveryProblem(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("applier.properties"), "apply.batch.max.rows=0\n");
        assertThatThrownBy(() -> ApplierConfig.load(file))
                .hasMessage(file + ": 1 problem:\n  apply.batch.max.rows=0: must be between 1 and 100000");
    }

    @Test
    void shouldReadThePasswordAndTheTokenFromAFileOrTheEnvironment(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("replica-password"), "s3cret\n");
        Path file = Files.writeString(dir.resolve("applier.properties"),
                "replica.password=${file:replica-password}\nadmin.token=${env:RDMAREPL_NO_SUCH_VARIABLE}\n");
        assertThatThrownBy(() -> ApplierConfig.load(file)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .containsExactly("admin.token=${env:RDMAREPL_NO_SUCH_VARIABLE}: environment variable RDMAREPL_NO_SUCH_VARIABLE is not set"));
        Files.writeString(file, "replica.password=${file:replica-password}\n");
        ApplierConfig config = ApplierConfig.load(file);
        assertThat(config.replicaPassword()).isEqualTo("s3cret");
        assertThat(config.describe()).contains("replica.password=****").doesNotContain("s3cret");
    }

    @Test
    void shouldMatchTheTableOfItsDocumentationPage() throws Exception {
        Path page = Path.of("..").resolve(ApplierKeys.ALL.page());
        assertThat(ConfigTable.verify(page, ApplierKeys.ALL, Boolean.getBoolean("rdmarepl.docs.update")))
                .as("%s against ApplierKeys (run with -Drdmarepl.docs.update=true to rewrite its table)", page).isEmpty();
    }
}
