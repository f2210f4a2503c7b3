package io.rdmarepl.conformance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmarepl.applier.planted.ApplierReadingTheLeaseCheck;
import io.rdmarepl.applier.planted.ApplierThatShips;
import io.rdmarepl.channel.planted.ChannelWithFormatConstants;
import io.rdmarepl.channel.softverbs.planted.SoftVerbsAddOn;
import io.rdmarepl.coordinator.planted.CoordinatorInTheHotPath;
import io.rdmarepl.coordinator.planted.CoordinatorReadingFrames;
import io.rdmarepl.format.planted.FormatOverTheWire;
import io.rdmarepl.format.planted.FormatWithSqlTypeCodes;
import io.rdmarepl.shipper.planted.ShipperSkippingTheAppliersTable;
import io.rdmarepl.shipper.planted.ShipperThatApplies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each {@link SourceRules} rule, run over the planted sources (the {@code io.rdmarepl.*.planted} packages of this
 * module's tests, which {@link SourceRulesTest} never reads), must fail and name every forbidden reference planted for
 * it, the constants the class-file rules cannot see among them, and must leave alone what it allows.
 */
class SourceRulesFailTest {
    private static final List<JavaSource> PLANTED = JavaSource.readAll(List.of(SourceTrees.conformanceTests())).stream()
            .filter(s -> s.packageName().endsWith(".planted")).toList();

    /** The planted classes that name forbidden types only through constants. */
    private static final JavaClasses CONSTANTS_ONLY = new ClassFileImporter().importClasses(FormatWithSqlTypeCodes.class,
            ChannelWithFormatConstants.class, ShipperSkippingTheAppliersTable.class, ApplierReadingTheLeaseCheck.class,
            CoordinatorReadingFrames.class);

    @Test
    void theClassFileRulesDoNotSeeAConstantsOwner() {
        // why the source rules exist: if ArchUnit ever sees these, they are a second net, no longer the only one
        for (Map.Entry<String, ArchRule> rule : Map.of(
                "format", ArchitectureRules.FORMAT_KNOWS_NO_TRANSPORT_AND_NO_DATABASE,
                "channel", ArchitectureRules.CHANNEL_KNOWS_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT,
                "shipper and applier", ArchitectureRules.SHIPPER_AND_APPLIER_NEVER_IMPORT_EACH_OTHER,
                "DiSNI", ArchitectureRules.ONLY_THE_VERBS_TRANSPORTS_IMPORT_DISNI,
                "coordinator", ArchitectureRules.COORDINATOR_NEVER_IMPORTS_THE_HOT_PATH).entrySet()) {
            assertThat(rule.getValue().evaluate(CONSTANTS_ONLY).getFailureReport().getDetails())
                    .as("the %s class-file rule on constants javac copied in", rule.getKey()).isEmpty();
        }
    }

    @Test
    void formatRuleFlagsTransportAndDatabaseConstantsAndFields() {
        SourceRule rule = SourceRules.FORMAT_NAMES_NO_TRANSPORT_AND_NO_DATABASE;
        assertFlags(rule, FormatWithSqlTypeCodes.class, "java.sql.Types", "java.net.HttpURLConnection");
        assertFlags(rule, FormatOverTheWire.class, "io.rdmarepl.channel.ring.RingWriter", "com.ibm.disni.verbs.IbvMr",
                "java.net.Socket", "java.sql.Connection", "javax.sql.DataSource", "org.postgresql.PGConnection",
                "com.zaxxer.hikari.HikariDataSource");
    }

    @Test
    void channelRuleFlagsFormatAndDatabaseConstantsAndAnImportOnDemand() {
        assertFlags(SourceRules.CHANNEL_NAMES_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT, ChannelWithFormatConstants.class,
                "io.rdmarepl.format.codec.RecordDescriptor", "java.sql.*");
    }

    @Test
    void shipperAndApplierRulesFlagEachOthersConstantsButNotComments() {
        assertFlags(SourceRules.SHIPPER_NAMES_NO_APPLIER, ShipperSkippingTheAppliersTable.class,
                "io.rdmarepl.applier.position.AppliedPositionStore");
        assertFlags(SourceRules.SHIPPER_NAMES_NO_APPLIER, ShipperThatApplies.class, "io.rdmarepl.applier.apply.Applier");
        assertThat(SourceRules.SHIPPER_NAMES_NO_APPLIER.violations(PLANTED))
                .as("a comment, a string and a text block naming the applier").filteredOn(v -> v.startsWith(
                        ShipperSkippingTheAppliersTable.class.getName() + " ")).hasSize(1);
        assertFlags(SourceRules.APPLIER_NAMES_NO_SHIPPER, ApplierReadingTheLeaseCheck.class,
                "io.rdmarepl.shipper.config.ShipperConfig");
        assertFlags(SourceRules.APPLIER_NAMES_NO_SHIPPER, ApplierThatShips.class, "io.rdmarepl.shipper.Shipper");
    }

    @Test
    void disniRuleFlagsConstantsOutsideTheVerbsTransports() {
        SourceRule rule = SourceRules.ONLY_THE_VERBS_TRANSPORTS_NAME_DISNI;
        assertFlags(rule, ChannelWithFormatConstants.class, "com.ibm.disni.verbs.IbvSendWR");
        assertFlags(rule, CoordinatorReadingFrames.class, "com.ibm.disni.verbs.IbvSendWR");
        assertThat(rule.violations(PLANTED)).as("a verbs transport may").noneMatch(v -> v.startsWith(SoftVerbsAddOn.class.getName() + " "));
    }

    @Test
    void coordinatorRuleFlagsTheCodecButNotItsVocabulary() {
        SourceRule rule = SourceRules.COORDINATOR_NAMES_NOTHING_OF_THE_HOT_PATH;
        assertFlags(rule, CoordinatorReadingFrames.class, "io.rdmarepl.format.codec.RecordDescriptor", "com.ibm.disni.verbs.IbvSendWR");
        assertFlags(rule, CoordinatorInTheHotPath.class, "io.rdmarepl.shipper.Shipper", "com.lmax.disruptor.RingBuffer",
                "io.debezium.engine.DebeziumEngine");
        assertThat(rule.violations(PLANTED)).as("the format's Lsn, config-support and the control contract")
                .noneMatch(v -> v.contains(" names io.rdmarepl.format.Lsn ") || v.contains(" names io.rdmarepl.config.")
                        || v.contains(" names io.rdmarepl.control."));
    }

    private static void assertFlags(SourceRule rule, Class<?> origin, String... references) {
        List<String> violations = rule.violations(PLANTED);
        assertThat(rule.checked(PLANTED)).as("planted sources '%s' holds to", rule).isPositive();
        for (String reference : references) {
            assertThat(violations).as("'%s' names %s -> %s", rule, origin.getSimpleName(), reference)
                    .anyMatch(v -> v.startsWith(origin.getName() + " names " + reference + " ("));
        }
    }
}
