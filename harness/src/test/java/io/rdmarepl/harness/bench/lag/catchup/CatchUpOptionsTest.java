package io.rdmarepl.harness.bench.lag.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatchUpOptionsTest {

    @Test
    void shouldTakeScaleTenAndOneWorkerByDefault() {
        List<String> problems = new ArrayList<>();

        CatchUpOptions o = CatchUpOptions.parse(20, null, null, Set.of("--catch-up"), null, problems);

        assertThat(problems).isEmpty();
        assertThat(o).isEqualTo(new CatchUpOptions(20, CatchUpOptions.DEFAULT_SCALE, List.of(1)));
    }

    @Test
    void shouldKeepTheWorkerValuesInTheOrderGiven() {
        List<String> problems = new ArrayList<>();

        CatchUpOptions o = CatchUpOptions.parse(5, List.of("4", " 1", "2"), 1, Set.of(), Map.of(), problems);

        assertThat(problems).isEmpty();
        assertThat(o.applyWorkers()).containsExactly(4, 1, 2);
        assertThat(o.scale()).isEqualTo(1);
    }

    @Test
    void shouldRunEitherOfTwoPgbenchScripts() {
        List<String> problems = new ArrayList<>();

        assertThat(CatchUpOptions.parse(5, null, null, null, Set.of(), null, problems).script()).isEqualTo("tpcb-like");
        assertThat(CatchUpOptions.parse(5, null, null, "simple-update", Set.of(), null, problems).script())
                .isEqualTo("simple-update");
        assertThat(problems).isEmpty();

        assertThat(CatchUpOptions.parse(5, null, null, "select-only", Set.of(), null, problems)).isNull();
        assertThat(CatchUpOptions.parse(null, null, null, "simple-update", Set.of(), null, problems)).isNull();
        assertThat(problems).containsExactly("--script select-only: must be tpcb-like or simple-update",
                "--script: only with --catch-up");
    }

    @Test
    void shouldMeasureNoCatchUpAndRefuseItsOptionsWithoutCatchUp() {
        List<String> problems = new ArrayList<>();

        assertThat(CatchUpOptions.parse(null, null, null, Set.of(), null, problems)).isNull();
        assertThat(problems).isEmpty();

        assertThat(CatchUpOptions.parse(null, List.of("2"), 3, Set.of(), null, problems)).isNull();
        assertThat(problems).containsExactly("--apply-workers: only with --catch-up", "--scale: only with --catch-up");
    }

    @Test
    void shouldReportEveryBadValueAndEveryLagOnlyOptionAtOnce() {
        List<String> problems = new ArrayList<>();

        CatchUpOptions o = CatchUpOptions.parse(0, List.of("2", "two", "2", "0"), 0, Set.of("--load", "--probe-rate", "--rounds"),
                Map.of("apply.workers", "4"), problems);

        assertThat(o).isNull();
        assertThat(problems).containsExactly(
                "--catch-up 0: must be 1..3600 seconds",
                "--scale 0: must be 1.." + CatchUpOptions.MAX_SCALE,
                "--probe-rate: not with --catch-up (it measures lag; the catch-up load is one of pgbench's built-in scripts, flat out)",
                "--load: not with --catch-up (it measures lag; the catch-up load is one of pgbench's built-in scripts, flat out)",
                "--applier apply.workers: with --catch-up use --apply-workers",
                "--apply-workers two: must be whole numbers, comma-separated (1,2,4)",
                "--apply-workers 2: named twice",
                "--apply-workers 0: each must be 1.." + CatchUpOptions.MAX_WORKERS);
    }
}
