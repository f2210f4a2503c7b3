package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.compare.ComparisonReport;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The common course of a fault-injection test: both processes started, a workload running on the primary, the
 * replica part way through it, then {@link Fault the fault} and the recovery the test injects while the workload
 * keeps running, more transactions after the recovery, and finally replica = primary, table by table, with no row
 * missing and none duplicated. One pair of servers per test class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
abstract class FaultInjectionTest {
    /** Two clients, each pausing this long between transactions: about 80 transactions per second. */
    private static final Duration CLIENT_PAUSE = Duration.ofMillis(20);
    /** Transactions the replica applies before the fault: the fault hits mid-stream. */
    private static final long APPLIED_BEFORE_FAULT = 40;
    /** Transactions committed on the primary after the recovery, before the workload stops. */
    private static final long COMMITTED_AFTER_RECOVERY = 100;

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjectionTest.class);

    protected Replication replication;

    @FunctionalInterface
    interface Fault {
        void injectAndRecover() throws Exception;
    }

    @BeforeAll
    void startServers() throws Exception {
        replication = Replication.create(getClass().getSimpleName().toLowerCase(Locale.ROOT));
    }

    @AfterAll
    void stopEverything() {
        if (replication != null) {
            replication.close();
        }
    }

    /** Runs the course around {@code fault}; asserts replica = primary at the end. */
    protected void replicateThrough(Fault fault) throws Exception {
        long startNs = System.nanoTime();
        replication.startBoth();
        Workload workload = new Workload(replication.primary(), CLIENT_PAUSE);
        workload.start(2);
        try {
            replication.awaitReplicaProgress(APPLIED_BEFORE_FAULT, Duration.ofSeconds(30));
            long beforeFault = workload.committed();
            fault.injectAndRecover();
            long afterRecovery = workload.committed();
            workload.awaitCommitted(afterRecovery + COMMITTED_AFTER_RECOVERY, Duration.ofSeconds(30));
            LOG.info("{}: {} transactions committed before the fault, {} until recovered", getClass().getSimpleName(),
                    beforeFault, afterRecovery);
        } catch (Exception | AssertionError e) {
            try {
                workload.stop();
            } catch (Exception stopFailure) {
                e.addSuppressed(stopFailure);
            }
            throw e;
        }
        workload.stop();
        replication.awaitCaughtUp();

        ComparisonReport tables = replication.compare();
        LOG.info("{}: {} transactions committed, {} rolled back, in {} ms; applier {}; {}", getClass().getSimpleName(),
                workload.committed(), workload.rolledBack(), (System.nanoTime() - startNs) / 1_000_000,
                replication.applierCounts(), tables);
        assertThat(tables.equal())
                .as("replica = primary after %d transactions through the fault\n%s\n%s", workload.committed(), tables,
                        replication.diagnostics())
                .isTrue();
        assertThat(tables.table("public.history")).as("%s", tables).get()
                .satisfies(t -> assertThat(t.primaryRows()).isGreaterThan(APPLIED_BEFORE_FAULT + COMMITTED_AFTER_RECOVERY));
        replication.checkAlive();
    }
}
