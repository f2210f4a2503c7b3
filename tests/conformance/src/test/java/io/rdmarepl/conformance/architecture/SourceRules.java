package io.rdmarepl.conformance.architecture;

import static io.rdmarepl.conformance.architecture.ArchitectureRules.APPLIER;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.CHANNEL;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.CONFIG;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.CONTROL;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.COORDINATOR;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.DATABASE;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.DEBEZIUM;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.FORMAT;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.SHIPPER;
import static io.rdmarepl.conformance.architecture.ArchitectureRules.VERBS_TRANSPORTS;
import static io.rdmarepl.conformance.architecture.SourceRule.concat;
import static io.rdmarepl.conformance.architecture.SourceRule.sourcesIn;

import java.util.List;

/**
 * The module rules of issue #22 read off the sources, beside the class-file rules of {@link ArchitectureRules}.
 * ArchUnit reads class files, and a compile-time constant (a static final primitive or String) leaves none of its
 * owner there: javac copies the value into the class that uses it. {@code static final int INTEGER =
 * java.sql.Types.INTEGER;} in log-format, or {@code IbvSendWR.IBV_WR_RDMA_WRITE} in the ring, passes
 * {@link ArchitectureTest}; these rules see the import or the qualified name. {@link SourceRulesTest} holds the
 * production sources to them; {@link SourceRulesFailTest} shows each one failing on planted sources.
 */
final class SourceRules {
    static final SourceRule FORMAT_NAMES_NO_TRANSPORT_AND_NO_DATABASE = sourcesIn(FORMAT)
            .mayNotName(concat(new String[] {CHANNEL, "com.ibm.disni..", "java.net.."}, DATABASE))
            .as("log-format names no transport and no database");

    static final SourceRule CHANNEL_NAMES_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT = sourcesIn(CHANNEL)
            .mayNotName(concat(DATABASE, DEBEZIUM, new String[] {FORMAT}))
            .as("rdma-channel names no database, no Debezium and no log-format");

    static final SourceRule SHIPPER_NAMES_NO_APPLIER = sourcesIn(SHIPPER).mayNotName(APPLIER)
            .as("the shipper names nothing of the applier");

    static final SourceRule APPLIER_NAMES_NO_SHIPPER = sourcesIn(APPLIER).mayNotName(SHIPPER)
            .as("the applier names nothing of the shipper");

    static final SourceRule ONLY_THE_VERBS_TRANSPORTS_NAME_DISNI = sourcesIn("io.rdmarepl..").except(VERBS_TRANSPORTS)
            .mayNotName("com.ibm.disni..")
            .as("only channel.verbs and channel.softverbs name DiSNI");

    /** As {@link ArchitectureRules#COORDINATOR_NEVER_IMPORTS_THE_HOT_PATH}: of log-format, only its root package. */
    static final SourceRule COORDINATOR_NAMES_NOTHING_OF_THE_HOT_PATH = sourcesIn(COORDINATOR)
            .mayNotName(concat(new String[] {"io.rdmarepl..", "com.lmax.disruptor..", "com.ibm.disni.."}, DEBEZIUM))
            .butMay(COORDINATOR, CONFIG, CONTROL, "io.rdmarepl.format")
            .as("the coordinator names nothing of the hot path (but config-support, role-control and io.rdmarepl.format)");

    static final List<SourceRule> ALL = List.of(FORMAT_NAMES_NO_TRANSPORT_AND_NO_DATABASE,
            CHANNEL_NAMES_NO_DATABASE_NO_DEBEZIUM_AND_NO_FORMAT, SHIPPER_NAMES_NO_APPLIER, APPLIER_NAMES_NO_SHIPPER,
            ONLY_THE_VERBS_TRANSPORTS_NAME_DISNI, COORDINATOR_NAMES_NOTHING_OF_THE_HOT_PATH);

    private SourceRules() {
    }
}
