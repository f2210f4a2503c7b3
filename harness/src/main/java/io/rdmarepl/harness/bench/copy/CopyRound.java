package io.rdmarepl.harness.bench.copy;

import java.util.Map;

/**
 * One system's copy in one round: how long it took, what the replica held after it (rows per table, bytes with indexes),
 * and what was wrong, if anything (rows missing, or how the system ended).
 *
 * @param problem null when the replica held exactly the primary's rows and the system ended as it should
 * @param details where the time went, as far as the system can say ({@link CopySystem#details()})
 * @param cpuMs   CPU milliseconds the copy took, by part ({@link io.rdmarepl.harness.bench.cpu.CpuAccount#millis})
 */
record CopyRound(String system, int round, double seconds, Map<String, Long> rows, long bytes, String problem,
                 Map<String, Object> details, Map<String, Double> cpuMs) {
    long totalRows() {
        return rows.values().stream().mapToLong(Long::longValue).sum();
    }
}
