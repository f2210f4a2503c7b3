package io.rdmarepl.harness.bench.lag.catchup;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code bench lag --catch-up SECONDS} adds to {@code bench lag}'s options, validated: how long the load runs while
 * every system is paused, pgbench's scale, and the {@code apply.workers} values rdmarepl runs with (once each).
 *
 * @param seconds      how long the TPC-B clients run flat out while every system is paused
 * @param scale        pgbench scale of the tables (per unit 1 branch, 10 tellers, 100,000 accounts)
 * @param applyWorkers distinct, in the order given
 * @param script       pgbench's built-in script the load runs: {@value #TPCB_LIKE} or {@value #SIMPLE_UPDATE}
 */
public record CatchUpOptions(int seconds, int scale, List<Integer> applyWorkers, String script) {
    /** Account, teller, branch, history: every transaction also updates one of {@code scale} branch rows. */
    public static final String TPCB_LIKE = "tpcb-like";
    /** Account and history only (pgbench -N): no row every transaction contends for. */
    public static final String SIMPLE_UPDATE = "simple-update";
    public static final int DEFAULT_SCALE = 10;
    public static final int MAX_SCALE = 1000;
    public static final int MAX_WORKERS = 64;
    /** {@code bench lag}'s options that measure lag only and mean nothing with {@code --catch-up}. */
    public static final List<String> LAG_ONLY = List.of("--seconds", "--warmup-seconds", "--probe-rate", "--load", "--rows-per-tx",
            "--row-bytes", "--mode", "--sync-level", "--chart");

    public CatchUpOptions {
        applyWorkers = List.copyOf(applyWorkers);
    }

    public CatchUpOptions(int seconds, int scale, List<Integer> applyWorkers) {
        this(seconds, scale, applyWorkers, TPCB_LIKE);
    }

    /** Without {@code --script}. */
    public static CatchUpOptions parse(Integer seconds, List<String> applyWorkers, Integer scale, Set<String> given,
                                       Map<String, String> applier, List<String> problems) {
        return parse(seconds, applyWorkers, scale, null, given, applier, problems);
    }

    /**
     * @param seconds      {@code --catch-up}, null when not given (then {@code --apply-workers} and {@code --scale} must not be)
     * @param applyWorkers {@code --apply-workers}, comma-split; null when not given
     * @param scale        {@code --scale}, null when not given
     * @param script       {@code --script}, null when not given
     * @param given        the options given on the command line (names as typed: {@code --load})
     * @param applier      {@code --applier KEY=VALUE} pairs
     * @param problems     where each problem goes, naming option, value and rule
     * @return null without {@code --catch-up} or when a problem was found
     */
    public static CatchUpOptions parse(Integer seconds, List<String> applyWorkers, Integer scale, String script,
                                       Set<String> given, Map<String, String> applier, List<String> problems) {
        int before = problems.size();
        if (seconds == null) {
            if (script != null) {
                problems.add("--script: only with --catch-up");
            }
            if (applyWorkers != null) {
                problems.add("--apply-workers: only with --catch-up");
            }
            if (scale != null) {
                problems.add("--scale: only with --catch-up");
            }
            return null;
        }
        if (seconds < 1 || seconds > 3600) {
            problems.add("--catch-up " + seconds + ": must be 1..3600 seconds");
        }
        int s = scale == null ? DEFAULT_SCALE : scale;
        if (s < 1 || s > MAX_SCALE) {
            problems.add("--scale " + s + ": must be 1.." + MAX_SCALE);
        }
        String load = script == null ? TPCB_LIKE : script.strip();
        if (!load.equals(TPCB_LIKE) && !load.equals(SIMPLE_UPDATE)) {
            problems.add("--script " + script + ": must be " + TPCB_LIKE + " or " + SIMPLE_UPDATE);
        }
        for (String option : LAG_ONLY) {
            if (given.contains(option)) {
                problems.add(option + ": not with --catch-up (it measures lag; the catch-up load is one of pgbench's built-in scripts, flat out)");
            }
        }
        if (applier != null && applier.keySet().stream().anyMatch(k -> k.strip().equals(ApplyWorkers.KEY))) {
            problems.add("--applier " + ApplyWorkers.KEY + ": with --catch-up use --apply-workers");
        }
        List<Integer> workers = workers(applyWorkers == null ? List.of("1") : applyWorkers, problems);
        return problems.size() == before ? new CatchUpOptions(seconds, s, workers, load) : null;
    }

    private static List<Integer> workers(List<String> given, List<String> problems) {
        Set<Integer> workers = new LinkedHashSet<>();
        for (String raw : given) {
            try {
                int n = Integer.parseInt(raw.strip());
                if (n < 1 || n > MAX_WORKERS) {
                    problems.add("--apply-workers " + raw + ": each must be 1.." + MAX_WORKERS);
                } else if (!workers.add(n)) {
                    problems.add("--apply-workers " + raw + ": named twice");
                }
            } catch (NumberFormatException e) {
                problems.add("--apply-workers " + raw + ": must be whole numbers, comma-separated (1,2,4)");
            }
        }
        if (workers.isEmpty() && problems.stream().noneMatch(p -> p.startsWith("--apply-workers"))) {
            problems.add("--apply-workers: name at least one value");
        }
        return new ArrayList<>(workers);
    }
}
