package io.rdmarepl.shipper.liveness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RealtimePriorityTest {
    /** {@code /proc/<pid>/task/<tid>/stat} field 41: the scheduling policy (0 SCHED_OTHER, 1 SCHED_FIFO). */
    private static final int POLICY_FIELD = 41;
    private static final int SCHED_FIFO = 1;
    private static final long CAP_SYS_NICE = 1L << 23;

    @Test
    void shouldPutTheCallingThreadUnderTheRealTimeScheduler() throws Exception {
        assumeTrue(mayUseRealTimePriority(), "skipped: this process may not use real-time priority (no CAP_SYS_NICE)");
        CompletableFuture<String> seen = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            Optional<String> failure = RealtimePriority.raiseCurrentThread(1);
            seen.complete(failure.orElseGet(() -> "policy " + policyOfCurrentThread()));
        });
        thread.start();

        assertThat(seen.get(30, TimeUnit.SECONDS)).isEqualTo("policy " + SCHED_FIFO);
        thread.join();
    }

    @Test
    void shouldNotPassThePriorityOnToTheThreadsARaisedThreadStarts() throws Exception {
        assumeTrue(mayUseRealTimePriority(), "skipped: this process may not use real-time priority (no CAP_SYS_NICE)");
        CompletableFuture<Integer> childPolicy = new CompletableFuture<>();

        RealtimePriority.threads("rdmarepl-test-parent", 1).newThread(() -> {
            // e.g. a JDBC driver's cleaner or a pool's worker, started lazily from the watch
            new Thread(() -> childPolicy.complete(policyOfCurrentThread())).start();
        }).start();

        assertThat(childPolicy.get(30, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void shouldStartThreadsThatRaiseThemselves() throws Exception {
        assumeTrue(mayUseRealTimePriority(), "skipped: this process may not use real-time priority (no CAP_SYS_NICE)");
        CompletableFuture<Integer> policy = new CompletableFuture<>();

        Thread thread = RealtimePriority.threads("rdmarepl-test-answer", 1).newThread(() -> policy.complete(policyOfCurrentThread()));
        thread.start();

        assertThat(policy.get(30, TimeUnit.SECONDS)).isEqualTo(SCHED_FIFO);
        assertThat(thread.isDaemon()).isTrue();
        assertThat(thread.getName()).isEqualTo("rdmarepl-test-answer");
    }

    @Test
    void shouldLeaveTheThreadAloneAtPriorityZero() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        new Thread(() -> seen.complete(RealtimePriority.raiseCurrentThread(0).orElse("") + "policy " + policyOfCurrentThread())).start();

        assertThat(seen.get(30, TimeUnit.SECONDS)).isEqualTo("policy 0");
    }

    @Test
    void shouldRefuseAPriorityTheSchedulerHasNot() {
        assertThatThrownBy(() -> RealtimePriority.raiseCurrentThread(100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("liveness.realtime.priority must be 0..99, got 100");
    }

    private static int policyOfCurrentThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] afterComm = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Integer.parseInt(afterComm[POLICY_FIELD - 3]);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean mayUseRealTimePriority() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16) & CAP_SYS_NICE) != 0;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
