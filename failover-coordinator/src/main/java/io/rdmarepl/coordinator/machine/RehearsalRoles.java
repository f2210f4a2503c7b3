package io.rdmarepl.coordinator.machine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.control.ApplierRoutes;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.net.URI;
import java.time.Duration;

/**
 * The roles of a {@link FailoverRehearsal}, in memory: each route answers as a healthy role of a failover would, parsed
 * from JSON text as {@code HttpRoleClient} parses the real answers. Nothing leaves the process; an address here never
 * resolves ({@code .invalid}).
 */
final class RehearsalRoles implements RoleClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LEASE = "{\"replication_mode\":\"async\",\"sync_state\":null,\"acknowledged_lsn\":\"0/3000000\","
            + "\"lease_ms\":2000,\"lease_check_ms\":100,\"self_fence_timeout_ms\":2000,\"copy_progress\":null}";

    static URI applier(String member) {
        return URI.create("http://" + member + ".rehearsal.invalid:9472");
    }

    static URI shipper(String member) {
        return URI.create("http://" + member + ".rehearsal.invalid:7480");
    }

    @Override
    public JsonNode get(URI admin, String path, Duration timeout) {
        throw new RoleException("GET " + admin.resolve(path) + ": not part of the rehearsal");
    }

    @Override
    public JsonNode post(URI admin, String path, String body, Duration timeout) {
        return switch (path) {
            case ShipperRoutes.LEASE -> json(LEASE);
            case ShipperRoutes.FENCE -> json("{\"state\":\"fenced\"}");
            case ApplierRoutes.DRAIN -> json("{\"applied_lsn\":\"0/3000060\"}");
            case ApplierRoutes.PROMOTE -> json("{\"state\":\"promoted\",\"applied_lsn\":\"0/3000060\",\"sequences\":{}}");
            case ApplierRoutes.FOLLOW -> json("{\"result\":\"following\"}");
            default -> throw new RoleException("POST " + admin.resolve(path) + ": not part of the rehearsal");
        };
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the rehearsal's answer is no JSON: " + text, e);
        }
    }
}
