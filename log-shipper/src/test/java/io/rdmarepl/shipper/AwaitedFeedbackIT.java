package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.testsupport.Await;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * In sync mode the shipper tells a standby, through its ring's sleep word, while the primary's commits wait for that
 * standby's acknowledgement, so the applier applies what it holds instead of lingering for more: over shm by sleeping on
 * its doorbell, over verbs (softrdma here), where it polls the feedback instead, by saying so.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AwaitedFeedbackIT extends SyncPrimaryPerClass {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aSoftRdmaStandbyIsToldWhileItsAcknowledgementIsAwaited() throws Exception {
        try (RingCollector standby = RingCollector.overSoftRdma(1 << 20)) {
            toldWhileAwaited(standby, "awaited_verbs", 1);
        }
    }

    @Test
    void aShmStandbyIsToldWhileItsAcknowledgementIsAwaited() throws Exception {
        try (RingCollector standby = new RingCollector(1 << 20)) {
            toldWhileAwaited(standby, "awaited_shm", 10);
        }
    }

    private void toldWhileAwaited(RingCollector standby, String slot, int id) throws Exception {
        ShipperConfig config = ShipperConfig.load(syncProperties(slot, "awaited_feedback", standby.uri()));
        try (Shipper shipper = Shipper.start(config, new TextChangeEncoding(), Map.of(), new SimpleMeterRegistry())) {
            Await.until("sync mode on", WAIT, () -> syncState(shipper), "sync"::equals);
            Await.until("nothing awaited before anything is committed", WAIT, standby::shipperAwaitsFeedback, awaits -> !awaits);

            standby.holdDurableAtReceived(); // receives, acknowledges nothing more: the commit waits
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> primary.execute("INSERT INTO t VALUES (" + id + ")"));
            standby.awaitRecords(records -> records.stream().anyMatch(r -> r instanceof ChangeRecord.Insert), 30_000);
            Await.until("the shipper saying it awaits the standby's feedback", WAIT, standby::shipperAwaitsFeedback, awaits -> awaits);
            assertThat(commit).as("a sync commit the standby has not acknowledged").isNotDone();

            standby.acknowledgeReceived();
            Await.until("the commit returned once acknowledged", WAIT, commit::isDone);
            commit.get();
            Await.until("nothing awaited once acknowledged", WAIT, standby::shipperAwaitsFeedback, awaits -> !awaits);
        }
    }
}
