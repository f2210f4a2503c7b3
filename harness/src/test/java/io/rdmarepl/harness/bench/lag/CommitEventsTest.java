package io.rdmarepl.harness.bench.lag;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The moments the components' timers tell, beside the Prometheus registry the stage histograms read. */
class CommitEventsTest {
    private static final long T0 = 1_764_000_000_000_000L;

    @Test
    void shouldRememberWhenEachTransactionPassedAndLeaveThePrometheusHistogramsAsTheyWere() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CommitEvents events = new CommitEvents();
        CompositeMeterRegistry meters = new CompositeMeterRegistry(Clock.SYSTEM, List.of(prometheus, events));
        Timer ring = Timer.builder(CommitEvents.RING).tag("standby", "replica").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(30)).register(meters);
        Timer other = Timer.builder("rdmarepl.applier.apply.latency").register(meters);

        long before = LagWorkload.wallClockUs();
        ring.record(3, TimeUnit.MILLISECONDS);
        other.record(1, TimeUnit.MILLISECONDS);

        List<CommitEvents.Event> recorded = events.events(CommitEvents.RING);
        assertThat(recorded).hasSize(1);
        assertThat(recorded.get(0).atUs()).isBetween(before, LagWorkload.wallClockUs());
        assertThat(recorded.get(0).atUs() - recorded.get(0).commitUs()).isEqualTo(3_000);
        assertThat(events.events(CommitEvents.REPLICA)).isEmpty();
        assertThat(StageHistograms.take(prometheus).toMap().get("commit_to_ring_ms").toString()).contains("count=1");
    }

    @Test
    void shouldSplitEachProbeIntoFourLegs() {
        List<ProbeSample> samples = new ArrayList<>();
        List<CommitEvents.Event> ring = new ArrayList<>();
        List<CommitEvents.Event> replica = new ArrayList<>();
        long[] returned = new long[100];
        for (int i = 0; i < 100; i++) {
            long sent = T0 + i * 20_000L; // a probe every 20 ms, each whole in 12 ms
            long commit = sent + 500;
            ring.add(new CommitEvents.Event(sent + 4_000, commit + 800)); // a millisecond clock: the commit time a bit late
            samples.add(new ProbeSample(i + 1, sent, 5_000)); // applied 5 ms after sent
            replica.add(new CommitEvents.Event(sent + 6_500, commit));
            returned[i] = sent + 12_000;
        }
        LagWorkload.Window window = new LagWorkload.Window(1, 100, 2.0, 100, 100, Figures.histogram(), 0, returned);

        Map<String, Histogram> legs = CommitEvents.split(samples, window, ring, replica);

        assertThat(legs.keySet()).containsExactlyElementsOf(CommitEvents.LEGS);
        assertThat(legs.get("sent_to_ring").getTotalCount()).isEqualTo(100);
        assertThat(legs.get("sent_to_ring").getValueAtPercentile(50)).isBetween(3_990L, 4_010L);
        assertThat(legs.get("ring_to_applied").getValueAtPercentile(50)).isBetween(995L, 1_005L);
        assertThat(legs.get("applied_to_replica_committed").getValueAtPercentile(50)).isBetween(1_495L, 1_505L);
        assertThat(legs.get("replica_committed_to_returned").getValueAtPercentile(50)).isBetween(5_490L, 5_510L);
    }

    @Test
    void shouldLeaveOutAProbeWhoseTransactionCannotBeToldApart() {
        List<ProbeSample> samples = List.of(new ProbeSample(1, T0, 5_000));
        LagWorkload.Window window = new LagWorkload.Window(1, 1, 1.0, 1, 1, Figures.histogram(), 0, new long[] {T0 + 12_000});
        // two transactions committed while the probe was on its way (other load): which one was it?
        List<CommitEvents.Event> ring = List.of(new CommitEvents.Event(T0 + 3_000, T0 + 200), new CommitEvents.Event(T0 + 4_000, T0 + 600));
        List<CommitEvents.Event> replica = List.of(new CommitEvents.Event(T0 + 7_000, T0 + 600));

        Map<String, Histogram> legs = CommitEvents.split(samples, window, ring, replica);

        assertThat(legs.get("sent_to_ring").getTotalCount()).isZero();
    }
}
