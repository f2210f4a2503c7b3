/**
 * A failover-aware JDBC {@link javax.sql.DataSource} for applications: {@link io.rdmarepl.client.FailoverDataSource}
 * follows the failover coordinators' topology ({@link io.rdmarepl.client.TopologyClient}, long-polling
 * {@code GET /topology}) and hands out connections to the primary it names, one HikariCP pool per primary and epoch.
 * Callers that want failovers hidden use {@link io.rdmarepl.client.FailoverDataSource#inTransaction}.
 */
package io.rdmarepl.client;
