package io.rdmarepl.harness.bench;

import io.rdmarepl.testsupport.history.PrimaryWindow;
import io.rdmarepl.trials.TrialResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trials of {@code rdmarepl bench partition}, per scenario and mode, as a table or one JSON object. A trial passes
 * as the end-to-end tests' do ({@code TrialAssertions}): never two primaries, nothing acknowledged before the fault
 * lost, HEALTHY again with replica = primary; scenario 1 fails over with the old primary refusing writes before
 * PROMOTING, the others change nothing and lose nothing; in sync mode nothing acknowledged is lost at all.
 */
final class PartitionBenchReport {

    /**
     * One trial.
     *
     * @param result  what the trial showed, null when it failed before it could say
     * @param details the scenario's own figures (scenario 3: what each coordinator did; 4 and 6: writes during the fault; 7: the
     *                old primary back before the runbook)
     * @param error   why the trial could not finish, or null
     * @param seconds the trial's length, cluster start and stop included
     */
    record Trial(int trial, TrialResult result, Map<String, Object> details, String error, long seconds) {
    }

    /** One scenario in one mode: its trials. */
    record Scenario(PartitionScenario scenario, String mode, List<Trial> trials) {
        boolean sync() {
            return "sync".equals(mode);
        }
    }

    private final int trialsAsked;
    private final List<Scenario> scenarios;

    PartitionBenchReport(int trialsAsked, List<Scenario> scenarios) {
        this.trialsAsked = trialsAsked;
        this.scenarios = List.copyOf(scenarios);
    }

    /** Every trial passed, and at least one ran. */
    boolean pass() {
        return scenarios.stream().flatMap(s -> s.trials().stream().map(t -> failure(s, t))).allMatch(f -> f == null)
                && scenarios.stream().anyMatch(s -> !s.trials().isEmpty());
    }

    /** Why {@code trial} of {@code scenario} did not pass, or null when it did. */
    static String failure(Scenario scenario, Trial trial) {
        TrialResult r = trial.result();
        if (trial.error() != null || r == null) {
            return trial.error() != null ? trial.error() : "no result";
        }
        List<String> wrong = new ArrayList<>();
        if (!r.overlappingPrimaries().isEmpty()) {
            wrong.add("TWO PRIMARIES: " + r.overlappingPrimaries());
        }
        if (!r.lostBeforeFault().isEmpty()) {
            wrong.add("lost " + r.lostBeforeFault().size() + " write(s) acknowledged before the fault");
        }
        if (!r.healed()) {
            wrong.add("not healed: the replica differs from the primary");
        }
        if (scenario.scenario().failsOver()) {
            if (!r.failedOver()) {
                wrong.add("no failover");
            } else if (r.fencedBeforePromotingMs() <= 0) {
                wrong.add("the old primary acknowledged writes " + -r.fencedBeforePromotingMs() + " ms after PROMOTING");
            }
        } else if (r.failedOver()) {
            wrong.add("failed over");
        }
        if ((scenario.sync() || !scenario.scenario().failsOver()) && !r.lostAcknowledged().isEmpty()) {
            wrong.add((scenario.sync() ? "SYNC MODE " : "") + "lost " + r.lostAcknowledged().size() + " acknowledged write(s)");
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pass", pass());
        m.put("trials_per_scenario", trialsAsked);
        List<Map<String, Object>> list = new ArrayList<>();
        for (Scenario s : scenarios) {
            list.add(scenarioMap(s));
        }
        m.put("scenarios", list);
        return m;
    }

    private static Map<String, Object> scenarioMap(Scenario s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", s.scenario().number());
        m.put("name", s.scenario().title());
        m.put("mode", s.mode());
        m.put("trials", s.trials().size());
        List<TrialResult> results = results(s);
        m.put("completed", results.size()); // the figures below are over these: a trial that could not finish has none
        m.put("lost_acknowledged", results.stream().mapToInt(r -> r.lostAcknowledged().size()).sum());
        m.put("lost_before_fault", results.stream().mapToInt(r -> r.lostBeforeFault().size()).sum());
        m.put("overlapping_primaries", results.stream().mapToInt(r -> r.overlappingPrimaries().size()).sum());
        // over the trials that failed over; in sync mode the old primary's last acknowledgement may precede the cut (< 0)
        m.put("self_fence_ms", minMedianMax(results.stream().filter(TrialResult::failedOver).map(TrialResult::selfFenceMs).toList()));
        m.put("fenced_before_promoting_ms", minMedianMax(results.stream().filter(TrialResult::failedOver)
                .map(TrialResult::fencedBeforePromotingMs).toList()));
        m.put("failovers", results.stream().filter(TrialResult::failedOver).count());
        m.put("healed", results.size() == s.trials().size() && results.stream().allMatch(TrialResult::healed));
        m.put("pass", s.trials().stream().allMatch(t -> failure(s, t) == null));
        List<Map<String, Object>> perTrial = new ArrayList<>();
        for (Trial t : s.trials()) {
            perTrial.add(trialMap(s, t));
        }
        m.put("per_trial", perTrial);
        return m;
    }

    private static Map<String, Object> trialMap(Scenario s, Trial t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trial", t.trial());
        m.put("seconds", t.seconds());
        TrialResult r = t.result();
        if (r != null) {
            m.put("primary_before", r.primaryBefore());
            m.put("primary_after", r.primaryAfter());
            m.put("failed_over", r.failedOver());
            List<Map<String, Object>> windows = new ArrayList<>();
            for (PrimaryWindow w : r.windows()) {
                windows.add(Map.of("member", w.member(), "acknowledged", w.acks()));
            }
            m.put("acknowledged", windows);
            m.put("overlapping_primaries", r.overlappingPrimaries());
            m.put("lost_acknowledged", r.lostAcknowledged().size());
            m.put("lost_before_fault", r.lostBeforeFault().size());
            m.put("self_fence_ms", r.failedOver() ? r.selfFenceMs() : null);
            m.put("fenced_before_promoting_ms", r.failedOver() ? r.fencedBeforePromotingMs() : null);
            m.put("healed", r.healed());
            m.putAll(t.details());
            m.put("notes", r.notes());
        }
        String failure = failure(s, t);
        if (failure != null) {
            m.put("failure", failure);
        }
        return m;
    }

    /** {@code {"min":..,"median":..,"max":..}} (nearest-rank median: a measured value), nulls when there were none. */
    static Map<String, Object> minMedianMax(List<Long> values) {
        Map<String, Object> spread = Spread.of(values).toMap();
        spread.remove("p99");
        return spread;
    }

    private static List<TrialResult> results(Scenario s) {
        return s.trials().stream().map(Trial::result).filter(r -> r != null).toList();
    }

    String table() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("rdmarepl bench partition: %d trial(s) per scenario and mode, each on a fresh cluster of network-namespace "
                + "hosts, judged by the clients' history of acknowledged writes%n", trialsAsked));
        out.append(String.format("%-8s %-5s %6s %9s %17s %11s %26s %6s  %s%n", "scenario", "mode", "trials", "failovers",
                "lost ack (before)", "overlapping", "self-fence ms min/med/max", "healed", "result"));
        for (Scenario s : scenarios) {
            Map<String, Object> m = scenarioMap(s);
            @SuppressWarnings("unchecked")
            Map<String, Object> fence = (Map<String, Object>) m.get("self_fence_ms");
            String fenceText = fence.get("min") == null ? "-" : fence.get("min") + "/" + fence.get("median") + "/" + fence.get("max");
            out.append(String.format("%-8d %-5s %6d %9s %17s %11s %26s %6s  %s%n", s.scenario().number(), s.mode(), s.trials().size(),
                    m.get("failovers"), m.get("lost_acknowledged") + " (" + m.get("lost_before_fault") + ")", m.get("overlapping_primaries"),
                    fenceText, (Boolean) m.get("healed") ? "yes" : "NO", (Boolean) m.get("pass") ? "PASS" : "FAIL"));
        }
        out.append(String.format("%nscenarios:%n"));
        scenarios.stream().map(Scenario::scenario).distinct()
                .forEach(s -> out.append(String.format("  %d. %s%n", s.number(), s.title())));
        for (Scenario s : scenarios) {
            for (Trial t : s.trials()) {
                String failure = failure(s, t);
                if (failure != null) {
                    out.append(String.format("FAILED: scenario %d %s trial %d: %s%n", s.scenario().number(), s.mode(), t.trial(), failure));
                }
            }
        }
        out.append(pass() ? "PASS" : "FAIL").append(String.format("%n"));
        return out.toString();
    }

    /** One line per trial on stderr while the bench runs. */
    static String progress(Scenario scenario, Trial trial, int of) {
        String failure = failure(scenario, trial);
        String what = trial.result() != null ? trial.result().summary() : trial.error();
        return String.format("scenario %d %s trial %d/%d (%d s): %s%s", scenario.scenario().number(), scenario.mode(), trial.trial(), of,
                trial.seconds(), failure == null ? "" : "FAILED (" + failure + "): ", what);
    }
}
