package io.rdmarepl.coordinator.config;

import java.net.URI;
import java.util.Optional;

/**
 * One PostgreSQL server of the cluster and the rdmarepl processes beside it.
 *
 * @param jdbcUrl       where clients and the coordinator's probes reach the server
 * @param applierAdmin  admin endpoint of the applier that keeps this server a standby, if one runs beside it
 * @param shipperAdmin  admin endpoint of the shipper beside this server, if it runs one (as primary)
 */
public record MemberConfig(String name, String jdbcUrl, Optional<URI> applierAdmin, Optional<URI> shipperAdmin) {
}
