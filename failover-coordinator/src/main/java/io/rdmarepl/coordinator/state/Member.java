package io.rdmarepl.coordinator.state;

/**
 * One PostgreSQL server of the cluster as the coordinators agree on it.
 *
 * @param jdbcUrl where clients (and the coordinator's probes) reach it
 */
public record Member(String name, String jdbcUrl, Role role) {
    public Member withRole(Role next) {
        return new Member(name, jdbcUrl, next);
    }
}
