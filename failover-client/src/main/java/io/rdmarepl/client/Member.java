package io.rdmarepl.client;

import java.util.Objects;

/**
 * One PostgreSQL server of the cluster as the coordinator describes it.
 *
 * @param name    the coordinator's name for the server, e.g. {@code pga}
 * @param jdbcUrl where clients reach it, e.g. {@code jdbc:postgresql://10.0.0.1:5432/app}
 * @param role    {@code PRIMARY}, {@code STANDBY}, {@code FENCED}, or a role a later coordinator adds: kept as text
 *                so that a newer coordinator does not break older clients
 */
public record Member(String name, String jdbcUrl, String role) {
    public Member {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(role, "role");
    }

    /**
     * @return true if both name the same server at the same address (the role may differ).
     */
    public boolean sameServer(final Member other) {
        return other != null && name.equals(other.name) && jdbcUrl.equals(other.jdbcUrl);
    }
}
