package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.applier.config.ApplierKeys;
import java.util.List;
import java.util.Properties;

/**
 * The applier's {@code apply.workers} key (how many connections apply segments at once), as far as the applier on the
 * class path knows it. The applier refuses unknown keys, so with an applier that lacks it rdmarepl runs only with one
 * worker (nothing set) and any other value is reported as not run. With the key, every value is passed, 1 included, so a
 * changed default cannot slip into the figures.
 */
final class ApplyWorkers {
    static final String KEY = "apply.workers";

    private ApplyWorkers() {
    }

    /** Whether the applier's configuration lists {@value #KEY}. */
    static boolean known() {
        return known(ApplierKeys.ALL.keys().stream().map(k -> k.name()).toList());
    }

    static boolean known(List<String> applierKeys) {
        return applierKeys.contains(KEY);
    }

    /** Why rdmarepl cannot run with {@code workers} here, or null when it can. */
    static String unavailable(int workers, boolean known) {
        return known || workers == 1 ? null
                : "this applier has no " + KEY + " key yet (it refuses unknown keys); it applies on one connection, so only"
                        + " --apply-workers 1 runs";
    }

    /** Sets {@value #KEY} when the applier knows it. */
    static void set(Properties applier, int workers, boolean known) {
        if (known) {
            applier.setProperty(KEY, Integer.toString(workers));
        }
    }
}
