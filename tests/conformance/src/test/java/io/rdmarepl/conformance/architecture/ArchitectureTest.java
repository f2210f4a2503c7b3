package io.rdmarepl.conformance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every module's production classes (the module jars or target/classes on this module's test classpath; test classes
 * are left out) held to {@link ArchitectureRules}. A rule that matches no class fails too (ArchUnit's
 * {@code failOnEmptyShould}). Run it in the reactor ({@code -pl tests/conformance -am}): the local repository's jars
 * may be another checkout's.
 */
@AnalyzeClasses(packages = "io.rdmarepl", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    /** Package root, then the module (artifact) that owns it: the rules know a module by its package root. */
    static final Map<String, String> OWNERS = Map.ofEntries(
            Map.entry("io.rdmarepl.config", "config-support"),
            Map.entry("io.rdmarepl.control", "role-control"),
            Map.entry("io.rdmarepl.format", "log-format"),
            Map.entry("io.rdmarepl.channel", "rdma-channel"),
            Map.entry("io.rdmarepl.shipper", "log-shipper"),
            Map.entry("io.rdmarepl.applier", "replica-applier"),
            Map.entry("io.rdmarepl.coordinator", "failover-coordinator"),
            Map.entry("io.rdmarepl.client", "failover-client"),
            Map.entry("io.rdmarepl.cli", "cli"),
            Map.entry("io.rdmarepl.harness", "harness"),
            Map.entry("io.rdmarepl.benchmarks", "benchmarks"),
            Map.entry("io.rdmarepl.testsupport", "test-support"),
            Map.entry("io.rdmarepl.trials", "partition-trials"));

    @ArchTest
    static final ArchRule formatKnowsNoTransportAndNoDatabase = ArchitectureRules.FORMAT_KNOWS_NO_TRANSPORT_AND_NO_DATABASE;

    @ArchTest
    static final ArchRule formatAndConfigNeedOnlyTheJdk = ArchitectureRules.FORMAT_AND_CONFIG_NEED_ONLY_THE_JDK;

    @ArchTest
    static final ArchRule controlIsAContractOnly = ArchitectureRules.CONTROL_IS_A_CONTRACT_ONLY;

    @ArchTest
    static final ArchRule channelKnowsNoDatabaseNoDebeziumAndNoFormat =
            ArchitectureRules.CHANNEL_KNOWS_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT;

    @ArchTest
    static final ArchRule channelServesTheRoles = ArchitectureRules.CHANNEL_SERVES_THE_ROLES;

    @ArchTest
    static final ArchRule shipperAndApplierNeverImportEachOther = ArchitectureRules.SHIPPER_AND_APPLIER_NEVER_IMPORT_EACH_OTHER;

    @ArchTest
    static final ArchRule onlyTheVerbsTransportsImportDisni = ArchitectureRules.ONLY_THE_VERBS_TRANSPORTS_IMPORT_DISNI;

    @ArchTest
    static final ArchRule rolesReachATransportOnlyByUri = ArchitectureRules.ROLES_REACH_A_TRANSPORT_ONLY_BY_URI;

    @ArchTest
    static final ArchRule coordinatorNeverImportsTheHotPath = ArchitectureRules.COORDINATOR_NEVER_IMPORTS_THE_HOT_PATH;

    @ArchTest
    static final ArchRule clientStandsAlone = ArchitectureRules.CLIENT_STANDS_ALONE;

    @ArchTest
    static final ArchRule onlyTheShipperImportsDebezium = ArchitectureRules.ONLY_THE_SHIPPER_IMPORTS_DEBEZIUM;

    /** rdmarepl.jar (the role modules and cli) imports nothing of the harness module, JMH or test-support. */
    @ArchTest
    static final ArchRule theProductCarriesNoHarness = ArchitectureRules.THE_PRODUCT_CARRIES_NO_HARNESS;

    /** Each package root comes from the one module that owns it (no split packages), and every module was found. */
    @ArchTest
    static void eachPackageRootComesFromItsOwnModule(JavaClasses classes) {
        Map<String, Integer> found = new TreeMap<>();
        List<String> misplaced = new ArrayList<>();
        for (JavaClass c : classes) {
            String[] parts = c.getPackageName().split("\\.");
            String root = parts.length < 3 ? c.getPackageName() : parts[0] + "." + parts[1] + "." + parts[2];
            String owner = OWNERS.get(root);
            String location = c.getSource().map(s -> s.getUri().toString()).orElse("?");
            if (owner == null || !location.contains("/" + owner + "/")) {
                misplaced.add(c.getName() + " in " + location + (owner == null ? " (no module owns " + root + ")" : ""));
            } else {
                found.merge(root, 1, Integer::sum);
            }
        }
        assertThat(misplaced).as("classes outside their module").isEmpty();
        assertThat(found.keySet()).as("package roots with classes").containsExactlyInAnyOrderElementsOf(OWNERS.keySet());
    }
}
