package io.rdmarepl.coordinator.roles;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmarepl.control.ApplierRoutes;
import java.net.URI;
import java.time.Duration;

/**
 * The coordinator's one way to the roles: the admin endpoints of the shippers and appliers ({@link HttpRoleClient}).
 * An interface so the state machine's tests can stand in for the roles.
 */
public interface RoleClient {
    /**
     * @throws RoleException naming the endpoint when {@code GET path} does not answer 200 within {@code timeout}
     */
    JsonNode get(URI admin, String path, Duration timeout);

    /**
     * Posts {@code body} (JSON, or empty) to {@code path}.
     *
     * @throws RoleException naming the endpoint and its answer when it is not 200
     */
    JsonNode post(URI admin, String path, String body, Duration timeout);

    /**
     * @throws RoleException naming the endpoint when it does not answer 200 within {@code timeout}
     */
    default JsonNode status(URI admin, Duration timeout) {
        return get(admin, ApplierRoutes.STATUS, timeout); // a shipper's is the same route
    }
}
