package io.rdmarepl.harness.bench.lag.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ApplyWorkersTest {

    @Test
    void shouldRunOnlyOneWorkerAndSetNothingWhileTheApplierLacksTheKey() {
        Properties p = new Properties();

        ApplyWorkers.set(p, 1, false);

        assertThat(p).isEmpty();
        assertThat(ApplyWorkers.unavailable(1, false)).isNull();
        assertThat(ApplyWorkers.unavailable(2, false)).contains("no apply.workers key");
        assertThat(ApplyWorkers.known(List.of("ring.uri", "apply.batch.max.rows"))).isFalse();
    }

    @Test
    void shouldPassEveryValueOneIncludedOnceTheApplierHasTheKey() {
        assertThat(ApplyWorkers.known(List.of("ring.uri", "apply.workers"))).isTrue();
        for (int workers : new int[] {1, 4}) {
            Properties p = new Properties();

            ApplyWorkers.set(p, workers, true);

            assertThat(p.getProperty("apply.workers")).isEqualTo(Integer.toString(workers));
            assertThat(ApplyWorkers.unavailable(workers, true)).isNull();
        }
    }
}
