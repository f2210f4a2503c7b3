package io.rdmarepl.harness.bench.lag.catchup;

import java.util.List;

/**
 * What one round's load left for the paused systems: the transactions the clients committed (plus one marker), the WAL
 * they wrote, and the primary's figures every replica must equal.
 *
 * @param startLsn        the primary's WAL position before the load
 * @param endLsn          after the marker
 * @param inconsistencies the primary's figures against the clients' count ({@link TableFigures#inconsistencies}); empty
 */
record Backlog(int round, TpcbLoad.Result load, String startLsn, String endLsn, long walBytes, TableFigures primary,
               List<String> inconsistencies) {
    Backlog {
        inconsistencies = List.copyOf(inconsistencies);
    }

    long transactions() {
        return load.transactions();
    }
}
