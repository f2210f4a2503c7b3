package io.rdmarepl.client;

/**
 * What a {@link FailoverDataSource} follows, for metrics and status pages; a snapshot.
 *
 * @param topologyVersion version of the newest topology received, -1 before the first
 * @param epoch           its epoch, -1 before the first
 * @param phase           its phase, e.g. HEALTHY, or "UNKNOWN" before the first
 * @param primaryName     the primary connections go to, or null while none is known
 * @param primaryJdbcUrl  its JDBC URL, or null while none is known
 * @param failoversSeen   how many times connections moved from one primary (or epoch) to another
 * @param failedAttempts  how many inTransaction attempts failed with a failover error (and were retried or gave up)
 * @param coordinators    the coordinators and whether they answer
 */
public record FailoverStatus(
    long topologyVersion,
    long epoch,
    String phase,
    String primaryName,
    String primaryJdbcUrl,
    long failoversSeen,
    long failedAttempts,
    String coordinators) {
}
