package io.rdmarepl.conformance.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

/**
 * DESIGN.md's module rules ("The channel knows nothing of databases; the format knows nothing of transports; the
 * shipper and the applier never import each other; only the verbs transports import DiSNI; the coordinator reaches the
 * roles only through their admin APIs"), STYLE.md's ("shipper → channel ← applier", "everything else uses the ring API
 * and a transport chosen by URI") and the module table's ("nothing heavy", "never shipped inside the sidecar"), as
 * ArchUnit rules. A module is known by its package root ({@link ArchitectureTest#eachPackageRootComesFromItsOwnModule}
 * checks that each root comes from its own module only). {@link ArchitectureTest} holds the production classes to
 * them; {@link ArchitectureRulesFailTest} shows each one failing on planted classes. What a class file cannot show (a
 * constant javac copied in from another module), {@link SourceRules} reads off the sources.
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

    /** The harness module: the demo, {@code bench} and the rig they share (its own jar, rdmarepl-harness.jar). */
    static final String HARNESS_MODULE = "io.rdmarepl.harness..";

    /**
     * What measures or demonstrates (the harness module, JMH, test-support, the partition trials) and the test
     * libraries: "never shipped inside the sidecar".
     */
    static final String[] HARNESS = {HARNESS_MODULE, "io.rdmarepl.benchmarks..", "io.rdmarepl.testsupport..", "io.rdmarepl.trials..",
            "org.openjdk.jmh..", "org.junit..", "org.assertj..", "io.zonky.."};

    /** What rdmarepl.jar ships: the modules the roles run and the production command. */
    static final String[] PRODUCTION = concat(ROLE_MODULES, new String[] {CLI});

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
            .that().resideInAnyPackage(SHIPPER, APPLIER, COORDINATOR, CLIENT, CLI)
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

    /**
     * The client imports, of the other modules, only config-support, which needs nothing but the JDK
     * ({@link #FORMAT_AND_CONFIG_NEED_ONLY_THE_JDK}): its builder's settings are described, checked and reported as
     * every role's keys are.
     */
    static final ArchRule CLIENT_STANDS_ALONE = noClasses().that().resideInAPackage(CLIENT)
            .should().dependOnClassesThat(resideInAPackage("io.rdmarepl..").and(not(resideInAnyPackage(CLIENT, CONFIG)))
                    .as("are in another rdmarepl module (but config-support)"))
            .because("applications embed failover-client with HikariCP and the PostgreSQL driver only, and"
                    + " config-support, which needs nothing but the JDK (DESIGN.md, module table)");

    static final ArchRule ONLY_THE_SHIPPER_IMPORTS_DEBEZIUM = noClasses().that().resideOutsideOfPackage(SHIPPER)
            .should().dependOnClassesThat().resideInAnyPackage(DEBEZIUM)
            .because("Debezium is one of the shipper's two capture engines, nothing else's (DESIGN.md, The data path)");

    static final ArchRule THE_PRODUCT_CARRIES_NO_HARNESS = noClasses().that().resideInAnyPackage(PRODUCTION)
            .should().dependOnClassesThat().resideInAnyPackage(HARNESS)
            .because("the harness (demo, bench, rig, JMH, test-support) is never shipped inside the sidecar"
                    + " (DESIGN.md, module table): rdmarepl.jar holds only what the roles and the runbook commands need");

    private ArchitectureRules() {
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
