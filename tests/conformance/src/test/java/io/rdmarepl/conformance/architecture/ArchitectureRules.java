package io.rdmarepl.conformance.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.Dependency.Predicates.dependency;
import static com.tngtech.archunit.core.domain.Dependency.Predicates.dependencyTarget;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.conditions.ArchConditions.onlyHaveDependenciesWhere;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.List;
import java.util.regex.Pattern;

/**
 * DESIGN.md's module rules ("The channel knows nothing of databases; the format knows nothing of transports; the
 * shipper and the applier never import each other; only the verbs transports import DiSNI; the coordinator reaches the
 * roles only through their admin APIs"), STYLE.md's ("shipper → channel ← applier", "everything else uses the ring API
 * and a transport chosen by URI") and the module table's ("nothing heavy", "never shipped inside the sidecar"), as
 * ArchUnit rules. A module is known by its package root ({@link ArchitectureTest#eachPackageRootComesFromItsOwnModule}
 * checks that each root comes from its own module only). {@link ArchitectureTest} holds the production classes to
 * them; {@link ArchitectureRulesFailTest} shows each one failing on planted classes.
 */
final class ArchitectureRules {
    static final String FORMAT = "io.rdmarepl.format..";
    static final String CHANNEL = "io.rdmarepl.channel..";
    static final String SHIPPER = "io.rdmarepl.shipper..";
    static final String APPLIER = "io.rdmarepl.applier..";
    static final String COORDINATOR = "io.rdmarepl.coordinator..";
    static final String CLIENT = "io.rdmarepl.client..";
    static final String CONFIG = "io.rdmarepl.config..";
    /** role-control: the routes, requests and answers between the coordinator and the roles' admin endpoints. */
    static final String CONTROL = "io.rdmarepl.control..";
    static final String CLI = "io.rdmarepl.cli..";

    /** The modules a sidecar, an applier, a coordinator or an application runs. */
    static final String[] ROLE_MODULES = {FORMAT, CHANNEL, SHIPPER, APPLIER, COORDINATOR, CLIENT, CONFIG, CONTROL};

    /** The verbs transports: the only ones that may touch DiSNI. */
    static final String[] VERBS_TRANSPORTS = {"io.rdmarepl.channel.verbs..", "io.rdmarepl.channel.softverbs.."};

    /** The concrete transports; the roles name them only in a URI ({@code rdma://}, {@code softrdma://}, {@code shm://}). */
    static final String[] TRANSPORTS = {"io.rdmarepl.channel.verbs..", "io.rdmarepl.channel.softverbs..",
            "io.rdmarepl.channel.shm.."};

    static final String[] DATABASE = {"java.sql..", "javax.sql..", "org.postgresql..", "com.zaxxer.hikari.."};
    static final String[] DEBEZIUM = {"io.debezium..", "org.apache.kafka.."};

    /**
     * What measures or demonstrates (the demo, {@code bench}, the rig, JMH, test-support) and the test libraries:
     * "never shipped inside the sidecar". {@code io.rdmarepl.harness..} is where issue 22 item 1 moves it.
     */
    static final String[] HARNESS = {"io.rdmarepl.cli.bench..", "io.rdmarepl.cli.rig..", "io.rdmarepl.cli.demo..",
            "io.rdmarepl.harness..", "io.rdmarepl.benchmarks..", "io.rdmarepl.testsupport..", "org.openjdk.jmh..",
            "org.junit..", "org.assertj..", "io.zonky.."};

    /**
     * The production command's dependencies on the harness that exist today, frozen until the harness moves into a
     * module of its own. TODO(issue 22, item 1): {@code CoordinatorEndpoint} (the coordinator's production routes)
     * moves out of {@code cli.rig}, and the launcher finds {@code bench} and {@code demo} in the harness jar instead
     * of {@code RdmareplCommand} naming them; then this list is empty and
     * {@link ArchitectureTest#frozenHarnessDependenciesAreExactlyTheOnesThatStillExist} says so.
     */
    static final List<FrozenDependency> FROZEN_HARNESS_DEPENDENCIES = List.of(
            new FrozenDependency("io.rdmarepl.cli.coordinate.CoordinateCommand", "io.rdmarepl.cli.rig.CoordinatorEndpoint"),
            new FrozenDependency("io.rdmarepl.cli.RdmareplCommand", "io.rdmarepl.cli.bench.BenchCommand"),
            new FrozenDependency("io.rdmarepl.cli.RdmareplCommand", "io.rdmarepl.cli.demo.DemoCommand"));

    static final ArchRule FORMAT_KNOWS_NO_TRANSPORT_AND_NO_DATABASE = noClasses().that().resideInAPackage(FORMAT)
            .should().dependOnClassesThat().resideInAnyPackage(concat(
                    new String[] {CHANNEL, "com.ibm.disni..", "java.net.."}, DATABASE))
            .because("the format reads and writes (ByteBuffer, offset, length): it knows nothing of transports"
                    + " or databases (DESIGN.md, Modules)");

    static final ArchRule FORMAT_AND_CONFIG_NEED_ONLY_THE_JDK = CompositeArchRule
            .of(classes().that().resideInAPackage(FORMAT)
                    .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax..", FORMAT))
            .and(classes().that().resideInAPackage(CONFIG)
                    .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax..", CONFIG))
            .because("log-format and config-support depend on 'nothing heavy' (DESIGN.md, module table):"
                    + " every role loads them");

    static final ArchRule CONTROL_IS_A_CONTRACT_ONLY = classes().that().resideInAPackage(CONTROL)
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "com.fasterxml.jackson..", CONTROL)
            .because("both ends of the control API load the contract: it holds routes, records and their JSON"
                    + " (Jackson), never a role's or the coordinator's code (DESIGN.md: the coordinator reaches the"
                    + " roles only through their admin APIs)");

    static final ArchRule CHANNEL_KNOWS_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT = noClasses().that().resideInAPackage(CHANNEL)
            .should().dependOnClassesThat().resideInAnyPackage(concat(DATABASE, DEBEZIUM, new String[] {FORMAT}))
            .because("the channel moves frames of bytes: it knows nothing of databases, of Debezium or of the"
                    + " change records inside the frames (DESIGN.md, Modules)");

    static final ArchRule CHANNEL_SERVES_THE_ROLES = noClasses().that().resideInAPackage(CHANNEL)
            .should().dependOnClassesThat().resideInAnyPackage(SHIPPER, APPLIER, COORDINATOR, CLIENT, CLI)
            .because("dependencies point one way: shipper -> channel <- applier (STYLE.md, section 1)");

    static final ArchRule SHIPPER_AND_APPLIER_NEVER_IMPORT_EACH_OTHER = CompositeArchRule
            .of(noClasses().that().resideInAPackage(SHIPPER).should().dependOnClassesThat().resideInAPackage(APPLIER))
            .and(noClasses().that().resideInAPackage(APPLIER).should().dependOnClassesThat().resideInAPackage(SHIPPER))
            .because("the two ends of the ring meet only in the ring layout and the record format (DESIGN.md, Modules)");

    static final ArchRule ONLY_THE_VERBS_TRANSPORTS_IMPORT_DISNI = noClasses().that().resideOutsideOfPackages(VERBS_TRANSPORTS)
            .should().dependOnClassesThat().resideInAPackage("com.ibm.disni..")
            .because("only channel.verbs and channel.softverbs import DiSNI; everything else uses the ring API"
                    + " (DESIGN.md, Modules; STYLE.md, section 1)");

    static final ArchRule ROLES_REACH_A_TRANSPORT_ONLY_BY_URI = noClasses()
            .that().resideInAnyPackage(SHIPPER, APPLIER, COORDINATOR, CLIENT)
            .or().resideInAPackage(CLI).and().resideOutsideOfPackages(HARNESS)
            .should().dependOnClassesThat().resideInAnyPackage(TRANSPORTS)
            .because("everything else uses the ring API and a transport chosen by URI (STYLE.md, section 1);"
                    + " the benchmarks may pick one directly");

    /**
     * The coordinator imports, of the other modules, only config-support, the roles' control contract
     * (role-control) and log-format's shared vocabulary in {@code io.rdmarepl.format} ({@code Lsn},
     * {@code CatchUpMarkers}); never the codec or the records, the channel, the roles, the command, nor the hot path's
     * libraries.
     */
    static final ArchRule COORDINATOR_NEVER_IMPORTS_THE_HOT_PATH = noClasses().that().resideInAPackage(COORDINATOR)
            .should().dependOnClassesThat(resideInAPackage("io.rdmarepl..")
                    .and(not(resideInAnyPackage(COORDINATOR, CONFIG, CONTROL, "io.rdmarepl.format")))
                    .or(resideInAnyPackage(concat(DEBEZIUM, new String[] {"com.lmax.disruptor..", "com.ibm.disni.."})))
                    .as("are in another rdmarepl module (but config-support, role-control and io.rdmarepl.format's Lsn and"
                            + " markers)"
                            + " or in the hot path's libraries (Debezium, Kafka Connect, Disruptor, DiSNI)"))
            .because("the coordinator reaches the roles only through their admin APIs (DESIGN.md, Modules)"
                    + " and never calls into the hot path (STYLE.md, section 1)");

    static final ArchRule CLIENT_STANDS_ALONE = noClasses().that().resideInAPackage(CLIENT)
            .should().dependOnClassesThat(resideInAPackage("io.rdmarepl..").and(not(resideInAPackage(CLIENT)))
                    .as("are in another rdmarepl module"))
            .because("applications embed failover-client with HikariCP and the PostgreSQL driver only"
                    + " (DESIGN.md, module table)");

    static final ArchRule ONLY_THE_SHIPPER_IMPORTS_DEBEZIUM = noClasses().that().resideOutsideOfPackage(SHIPPER)
            .should().dependOnClassesThat().resideInAnyPackage(DEBEZIUM)
            .because("Debezium is one of the shipper's two capture engines, nothing else's (DESIGN.md, The data path)");

    static final ArchRule THE_ROLES_CARRY_NO_HARNESS = noClasses().that().resideInAnyPackage(ROLE_MODULES)
            .should().dependOnClassesThat().resideInAnyPackage(HARNESS)
            .because("the harness (demo, bench, rig, JMH, test-support) is never shipped inside the sidecar"
                    + " (DESIGN.md, module table)");

    static final ArchRule THE_COMMANDS_CARRY_NO_HARNESS = theCommandsCarryNoHarness(FROZEN_HARNESS_DEPENDENCIES);

    private ArchitectureRules() {
    }

    /**
     * The production command ({@code io.rdmarepl.cli} outside the harness packages) depends on no harness class,
     * but for {@code frozen}.
     */
    static ArchRule theCommandsCarryNoHarness(List<FrozenDependency> frozen) {
        DescribedPredicate<Dependency> allowed = dependencyTarget(not(resideInAnyPackage(HARNESS)));
        for (FrozenDependency f : frozen) {
            allowed = allowed.or(f.predicate());
        }
        return classes().that().resideInAPackage(CLI).and().resideOutsideOfPackages(HARNESS)
                .should(onlyHaveDependenciesWhere(allowed.as("the target is outside the harness"
                        + (frozen.isEmpty() ? "" : " (or one of " + frozen.size() + " frozen dependencies)"))))
                .because("the harness (demo, bench, rig) is never shipped inside the sidecar (DESIGN.md, module table)");
    }

    /** A known violation, from one top-level class (and its nested classes) to another. */
    record FrozenDependency(String origin, String target) {
        DescribedPredicate<Dependency> predicate() {
            return dependency(nameMatching(Pattern.quote(origin) + "(\\$.*)?"), nameMatching(Pattern.quote(target) + "(\\$.*)?"));
        }

        @Override
        public String toString() {
            return origin + " -> " + target;
        }
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
