package io.rdmarepl.applier.role;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.apply.ApplierState;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hold of {@code /status/watch} on a real role around a stand-in applier whose ring age the test sets. */
@Timeout(30)
class StatusWatchTest {
    private static final String HEARD = "heard";
    private final ApplierRole role = ApplierRole.create(ApplierConfig.of("activation", "on-request",
            "ring.uri", "shm:///dev/shm/status-watch-test", "ring.epoch", "1"), FakeApplier::new);
    private FakeApplier applier;

    @AfterEach
    void close() {
        role.close();
    }

    @Test
    void shouldHoldWhileFramesComeAndAnswerOnceTheSilencePassesTheThreshold() throws Exception {
        follow();
        CompletableFuture<Long> answered = watch(Map.of("silence_ms", "20", "seen", HEARD, "state", "streaming", "wait_ms", "10000"));
        Await.until("the watch held", Duration.ofSeconds(5), () -> applier.ageReads.get() > 2);
        assertThat(answered).as("frames still come").isNotDone();

        applier.lastMessageAgeMs = 21;
        assertThat(answered.get(5, TimeUnit.SECONDS)).as("answered within the 10 s wait").isLessThan(5_000);
    }

    @Test
    void shouldAnswerWhenAFrameEndsASilence() throws Exception {
        follow();
        applier.lastMessageAgeMs = 900;
        CompletableFuture<Long> answered = watch(Map.of("silence_ms", "20", "seen", "silent", "state", "streaming", "wait_ms", "10000"));
        Await.until("the watch held", Duration.ofSeconds(5), () -> applier.ageReads.get() > 2);
        assertThat(answered).as("still silent").isNotDone();

        applier.lastMessageAgeMs = 0;
        assertThat(answered.get(5, TimeUnit.SECONDS)).isLessThan(5_000);
    }

    @Test
    void shouldAnswerWhenTheStateChanges() throws Exception {
        follow();
        CompletableFuture<Long> answered = watch(Map.of("silence_ms", "20", "seen", HEARD, "state", "streaming", "wait_ms", "10000"));
        Await.until("the watch held", Duration.ofSeconds(5), () -> applier.ageReads.get() > 2);

        applier.state = ApplierState.DRAINING;
        assertThat(answered.get(5, TimeUnit.SECONDS)).isLessThan(5_000);
    }

    @Test
    void shouldAnswerAtOnceWhenTheCallerSawSomethingElseAndAfterTheWaitOtherwise() throws Exception {
        follow();
        assertThat(watch(Map.of("silence_ms", "20", "seen", HEARD, "state", "waiting", "wait_ms", "10000"))
                .get(5, TimeUnit.SECONDS)).as("another state").isLessThan(5_000);
        assertThat(watch(Map.of("silence_ms", "20", "seen", "silent", "state", "streaming", "wait_ms", "10000"))
                .get(5, TimeUnit.SECONDS)).as("frames come, the caller saw silence").isLessThan(5_000);
        assertThat(watch(Map.of("silence_ms", "20", "seen", HEARD, "state", "streaming", "wait_ms", "50"))
                .get(5, TimeUnit.SECONDS)).as("nothing changed: the wait ends it").isGreaterThanOrEqualTo(50);
    }

    @Test
    void shouldTakeARoleWithoutAnApplierForSilent() throws Exception {
        assertThat(role.lastMessageAgeMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(watch(Map.of("silence_ms", "20", "seen", HEARD, "state", "waiting", "wait_ms", "10000"))
                .get(5, TimeUnit.SECONDS)).isLessThan(5_000);
    }

    private void follow() {
        role.activate(OptionalInt.empty());
        applier = (FakeApplier) role.current().orElseThrow();
    }

    /** The watch on a thread of its own; completes with how long it held, in ms. */
    private CompletableFuture<Long> watch(Map<String, String> query) {
        StatusWatch.Query parsed = new StatusWatch.Query(Long.parseLong(query.get("silence_ms")), query.get("seen").equals("silent"),
                query.get("state"), Long.parseLong(query.get("wait_ms")));
        return CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            try {
                StatusWatch.await(role, parsed);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        });
    }
}
