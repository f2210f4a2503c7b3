package io.rdmarepl.conformance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.rdmarepl.applier.planted.ApplierOnShm;
import io.rdmarepl.applier.planted.ApplierThatShips;
import io.rdmarepl.applier.planted.ApplierWithDebezium;
import io.rdmarepl.benchmarks.planted.BenchmarkOnShm;
import io.rdmarepl.channel.planted.ChannelThatDecodes;
import io.rdmarepl.channel.planted.ChannelThatShips;
import io.rdmarepl.channel.planted.RingOnDisni;
import io.rdmarepl.channel.softverbs.planted.SoftVerbsAddOn;
import io.rdmarepl.cli.planted.CommandThatBenches;
import io.rdmarepl.client.planted.ClientThatCoordinates;
import io.rdmarepl.config.planted.ConfigWithALibrary;
import io.rdmarepl.control.planted.ContractThatCoordinates;
import io.rdmarepl.coordinator.planted.CoordinatorInTheHotPath;
import io.rdmarepl.format.planted.FormatOverTheWire;
import io.rdmarepl.shipper.planted.ShipperOnVerbs;
import io.rdmarepl.shipper.planted.ShipperThatApplies;
import io.rdmarepl.shipper.planted.ShipperWithTheHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link ArchitectureRules}, run over planted classes (the {@code io.rdmarepl.*.planted} packages of
 * this module's tests, which {@link ArchitectureTest} never sees), must fail and name every forbidden dependency
 * planted for it, and must leave alone what it allows.
 */
class ArchitectureRulesFailTest {
    private static final JavaClasses PLANTED = new ClassFileImporter().importClasses(FormatOverTheWire.class,
            ConfigWithALibrary.class, ChannelThatDecodes.class, ChannelThatShips.class, RingOnDisni.class, SoftVerbsAddOn.class,
            ShipperThatApplies.class, ShipperOnVerbs.class, ShipperWithTheHarness.class, ApplierThatShips.class,
            ApplierOnShm.class, ApplierWithDebezium.class, BenchmarkOnShm.class, CoordinatorInTheHotPath.class,
            ClientThatCoordinates.class, CommandThatBenches.class, ContractThatCoordinates.class);

    @Test
    void formatRuleFlagsTransportsAndDatabases() {
        assertFlags(ArchitectureRules.FORMAT_KNOWS_NO_TRANSPORT_AND_NO_DATABASE, FormatOverTheWire.class,
                "io.rdmarepl.channel.ring.RingWriter", "com.ibm.disni.verbs.IbvMr", "java.net.Socket", "java.sql.Connection",
                "javax.sql.DataSource", "org.postgresql.PGConnection", "com.zaxxer.hikari.HikariDataSource");
    }

    @Test
    void nothingHeavyRuleFlagsAnythingBeyondTheJdk() {
        ArchRule rule = ArchitectureRules.FORMAT_AND_CONFIG_NEED_ONLY_THE_JDK;
        assertFlags(rule, FormatOverTheWire.class, "io.rdmarepl.channel.ring.RingWriter", "org.postgresql.PGConnection");
        assertFlags(rule, ConfigWithALibrary.class, "org.slf4j.Logger");
    }

    @Test
    void contractRuleFlagsEverythingButTheJdkAndJackson() {
        ArchRule rule = ArchitectureRules.CONTROL_IS_A_CONTRACT_ONLY;
        assertFlags(rule, ContractThatCoordinates.class, "io.rdmarepl.coordinator.machine.Coordinator",
                "io.rdmarepl.shipper.role.ShipperRole", "org.slf4j.Logger");
        List<String> details = rule.evaluate(PLANTED).getFailureReport().getDetails();
        assertThat(details).noneMatch(d -> d.contains("allowedJson") || d.contains("allowedUri"));
    }

    @Test
    void channelRuleFlagsDatabasesDebeziumAndTheFormat() {
        assertFlags(ArchitectureRules.CHANNEL_KNOWS_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT, ChannelThatDecodes.class,
                "java.sql.Connection", "org.postgresql.PGConnection", "com.zaxxer.hikari.HikariDataSource",
                "io.debezium.engine.DebeziumEngine", "org.apache.kafka.connect.source.SourceRecord", "io.rdmarepl.format.Lsn");
    }

    @Test
    void channelRuleFlagsCallsUpIntoTheRoles() {
        assertFlags(ArchitectureRules.CHANNEL_SERVES_THE_ROLES, ChannelThatShips.class, "io.rdmarepl.shipper.Shipper",
                "io.rdmarepl.applier.apply.Applier", "io.rdmarepl.coordinator.machine.Coordinator",
                "io.rdmarepl.client.FailoverDataSource", "io.rdmarepl.cli.RdmareplCommand");
    }

    @Test
    void shipperAndApplierRuleFlagsBothDirections() {
        ArchRule rule = ArchitectureRules.SHIPPER_AND_APPLIER_NEVER_IMPORT_EACH_OTHER;
        assertFlags(rule, ShipperThatApplies.class, "io.rdmarepl.applier.apply.Applier");
        assertFlags(rule, ApplierThatShips.class, "io.rdmarepl.shipper.Shipper");
    }

    @Test
    void disniRuleFlagsEveryoneButTheVerbsTransports() {
        ArchRule rule = ArchitectureRules.ONLY_THE_VERBS_TRANSPORTS_IMPORT_DISNI;
        assertFlags(rule, ShipperOnVerbs.class, "com.ibm.disni.verbs.IbvMr");
        assertFlags(rule, RingOnDisni.class, "com.ibm.disni.verbs.IbvMr");
        assertFlags(rule, FormatOverTheWire.class, "com.ibm.disni.verbs.IbvMr");
        assertFlags(rule, CoordinatorInTheHotPath.class, "com.ibm.disni.verbs.IbvMr");
        assertDoesNotFlag(rule, SoftVerbsAddOn.class);
    }

    @Test
    void transportRuleFlagsARoleNamingATransport() {
        ArchRule rule = ArchitectureRules.ROLES_REACH_A_TRANSPORT_ONLY_BY_URI;
        assertFlags(rule, ApplierOnShm.class, "io.rdmarepl.channel.shm.ShmReaderEnd",
                "io.rdmarepl.channel.verbs.VerbsReaderEnd");
        assertDoesNotFlag(rule, BenchmarkOnShm.class);
    }

    @Test
    void coordinatorRuleFlagsTheHotPathButNotItsVocabulary() {
        ArchRule rule = ArchitectureRules.COORDINATOR_NEVER_IMPORTS_THE_HOT_PATH;
        assertFlags(rule, CoordinatorInTheHotPath.class, "io.rdmarepl.channel.ring.RingWriter",
                "io.rdmarepl.format.codec.RecordDecoder", "io.rdmarepl.format.record.ChangeRecord",
                "io.rdmarepl.shipper.Shipper", "io.rdmarepl.applier.apply.Applier", "io.rdmarepl.cli.RdmareplCommand",
                "com.lmax.disruptor.RingBuffer", "com.ibm.disni.verbs.IbvMr", "io.debezium.engine.DebeziumEngine");
        List<String> details = rule.evaluate(PLANTED).getFailureReport().getDetails();
        assertThat(details).noneMatch(d -> d.contains("allowedLsn") || d.contains("allowedConfig") || d.contains("allowedContract"));
    }

    @Test
    void clientRuleFlagsAnyOtherModuleButConfigSupport() {
        ArchRule rule = ArchitectureRules.CLIENT_STANDS_ALONE;
        assertFlags(rule, ClientThatCoordinates.class, "io.rdmarepl.coordinator.machine.Coordinator", "io.rdmarepl.format.Lsn");
        List<String> details = rule.evaluate(PLANTED).getFailureReport().getDetails();
        assertThat(details).noneMatch(d -> d.contains("allowedConfig"));
    }

    @Test
    void debeziumRuleFlagsEveryoneButTheShipper() {
        ArchRule rule = ArchitectureRules.ONLY_THE_SHIPPER_IMPORTS_DEBEZIUM;
        assertFlags(rule, ApplierWithDebezium.class, "io.debezium.engine.DebeziumEngine");
        assertFlags(rule, ChannelThatDecodes.class, "org.apache.kafka.connect.source.SourceRecord");
        assertDoesNotFlag(rule, ShipperThatApplies.class);
    }

    @Test
    void productRuleFlagsARoleOrACommandCarryingTheHarness() {
        ArchRule rule = ArchitectureRules.THE_PRODUCT_CARRIES_NO_HARNESS;
        assertFlags(rule, ShipperWithTheHarness.class, "io.rdmarepl.testsupport.PostgresServer",
                "io.rdmarepl.harness.bench.BenchCommand", "org.assertj.core.api.Assertions");
        assertFlags(rule, CommandThatBenches.class, "io.rdmarepl.harness.bench.BenchCommand",
                "io.rdmarepl.harness.demo.DemoCommand", "io.rdmarepl.testsupport.PostgresServer",
                "org.openjdk.jmh.annotations.Benchmark");
    }

    private static void assertFlags(ArchRule rule, Class<?> origin, String... targets) {
        EvaluationResult result = rule.evaluate(PLANTED);
        assertThat(result.hasViolation()).as("%s fails on %s", rule.getDescription(), origin.getSimpleName()).isTrue();
        List<String> details = result.getFailureReport().getDetails();
        for (String target : targets) {
            assertThat(details).as("%s names %s -> %s", rule.getDescription(), origin.getSimpleName(), target)
                    .anyMatch(d -> d.contains("<" + origin.getName() + ".") && d.contains("<" + target + ">"));
        }
    }

    private static void assertDoesNotFlag(ArchRule rule, Class<?> allowed) {
        List<String> details = rule.evaluate(PLANTED).getFailureReport().getDetails();
        assertThat(details).as("%s leaves %s alone", rule.getDescription(), allowed.getSimpleName())
                .noneMatch(d -> d.contains(allowed.getName()));
    }
}
