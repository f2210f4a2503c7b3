package io.rdmarepl.harness.bench.lag.catchup;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatchUpReportTest {
    private static final Endpoint PRIMARY = new Endpoint("127.0.0.1", 5432, "postgres", "");
    private static final Endpoint REPLICA = new Endpoint("127.0.0.1", 5433, "postgres", "");
    private static final CatchUpSettings SETTINGS = new CatchUpSettings(new CatchUpOptions(20, 1, List.of(1)), 3, 4, List.of("shm"),
            "off", true, null, null, 1, Map.of(), Map.of(), "-", null, null, true);
    private static final ReplicaCheck EQUAL = new ReplicaCheck(5, 120_000, 0, List.of());

    private final CatchUpSystem rdmarepl = new RdmareplCatchUp("shm", 1, false, PRIMARY, "rdmarepl_catchup", REPLICA, SETTINGS);
    private final CatchUpSystem postgresql = new NativeCatchUp(PRIMARY, "rdmarepl_catchup", REPLICA, "off");

    @Test
    void shouldGiveEachSystemTheMediansOfItsRoundsAndTheRatioToPostgresql() {
        List<CatchUpRound> rounds = List.of(
                round(rdmarepl, 1, 10_000, 4.0, EQUAL), round(postgresql, 1, 10_000, 1.0, EQUAL),
                round(postgresql, 2, 12_000, 1.0, EQUAL), round(rdmarepl, 2, 12_000, 3.0, EQUAL),
                round(rdmarepl, 3, 11_000, 5.5, EQUAL), round(postgresql, 3, 11_000, 1.1, EQUAL));

        Map<String, Object> report = build(rounds, 3);

        assertThat(report.get("pass")).as("%s", report.get("problems")).isEqualTo(true);
        Map<String, Object> r = entry(report, 0);
        assertThat(r).containsEntry("name", "rdmarepl").containsEntry("apply_workers", 1).containsEntry("backlog_transactions", 11_000L)
                .containsEntry("apply_seconds", 4.0).containsEntry("tx_per_s", 2500.0).containsEntry("replica_equal", true);
        Map<String, Object> p = entry(report, 1);
        assertThat(p).containsEntry("name", "postgresql").doesNotContainKey("apply_workers").containsEntry("apply_seconds", 1.0)
                .containsEntry("tx_per_s", 10_000.0);
        assertThat(r.get("tx_per_s_vs_postgresql")).isEqualTo(0.25);
        assertThat((List<?>) r.get("rounds")).hasSize(3);
        assertThat(CatchUpReport.table(report)).contains("rdmarepl over shm, apply.workers=1").contains("0.25x").contains("yes (3/3 rounds)");
    }

    @Test
    void shouldFailTheRunWhenAReplicaDiffersInAnyRound() {
        ReplicaCheck differs = new ReplicaCheck(5, 120_000, 1, List.of("public.pgbench_history: row missing on the replica at (hid)=(7)"));
        List<CatchUpRound> rounds = List.of(round(rdmarepl, 1, 10_000, 4.0, differs), round(postgresql, 1, 10_000, 1.0, EQUAL));

        Map<String, Object> report = build(rounds, 1);

        assertThat(report.get("pass")).isEqualTo(false);
        assertThat(entry(report, 0)).containsEntry("replica_equal", false);
        assertThat(problems(report)).singleElement().asString()
                .contains("rdmarepl over shm, apply.workers=1 round 1").contains("(hid)=(7)");
        assertThat(CatchUpReport.table(report)).contains("NO (0/1 rounds)").contains("PROBLEM: ");
    }

    @Test
    void shouldFailTheRunWhenASystemMissedARoundOrSomethingWasLeftBehind() {
        Map<String, Long> cleanup = new LinkedHashMap<>(Map.of("replication_slots", 1L));
        Map<String, Object> report = CatchUpReport.build(List.of(rdmarepl, postgresql),
                new CatchUpRun.Result(List.of(round(postgresql, 1, 10, 1.0, EQUAL)), List.of()), 1, List.of(), SETTINGS.toMap(),
                Map.of(), cleanup);

        assertThat(report.get("pass")).isEqualTo(false);
        assertThat(problems(report)).containsExactly("rdmarepl over shm, apply.workers=1: 0 of 1 rounds measured",
                "1 replication_slots left behind");
    }

    private Map<String, Object> build(List<CatchUpRound> rounds, int asked) {
        return CatchUpReport.build(List.of(rdmarepl, postgresql), new CatchUpRun.Result(rounds, List.of()), asked,
                List.of(), SETTINGS.toMap(), Map.of("cores", 2, "postgresql", "17.11", "fsync", "on"), Map.of("replication_slots", 0L));
    }

    @SuppressWarnings("unchecked")
    private static List<String> problems(Map<String, Object> report) {
        return (List<String>) report.get("problems");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> entry(Map<String, Object> report, int index) {
        return ((List<Map<String, Object>>) report.get("catch_up")).get(index);
    }

    private static CatchUpRound round(CatchUpSystem system, int round, long transactions, double seconds, ReplicaCheck check) {
        return new CatchUpRound(system.label(), round, 1, transactions, 1 << 20, seconds, check, Map.of());
    }
}
