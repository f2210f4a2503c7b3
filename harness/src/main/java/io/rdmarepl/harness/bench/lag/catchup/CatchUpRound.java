package io.rdmarepl.harness.bench.lag.catchup;

import java.util.Map;

/**
 * One system's catch-up in one round: the backlog it found, how long it took from its resumption until the replica held
 * the marker, and how its replica then compared with the primary.
 *
 * @param order           1 for the system that caught up first in its round
 * @param check           the replica against the primary, row by row
 * @param details         where the time went, as far as the system can say ({@link CatchUpSystem#details()})
 */
record CatchUpRound(String label, int round, int order, long backlogTransactions, long backlogWalBytes, double applySeconds,
                    ReplicaCheck check, Map<String, Object> details) {
    CatchUpRound {
        details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
    }

    double transactionsPerSecond() {
        return applySeconds <= 0 ? 0 : backlogTransactions / applySeconds;
    }

    boolean equal() {
        return check.equal();
    }
}
