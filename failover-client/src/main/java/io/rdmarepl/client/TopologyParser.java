package io.rdmarepl.client;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the coordinator's topology JSON:
 * <pre>
 * {"cluster":"main","version":12,"epoch":3,"phase":"HEALTHY","leader":true,"age_ms":0,
 *  "primary":{"name":"pga","jdbc_url":"jdbc:postgresql://10.0.0.1:5432/app"},
 *  "members":[{"name":"pga","jdbc_url":"...","role":"PRIMARY"}, ...]}
 * </pre>
 * Fields it does not know are ignored, so that a newer coordinator can add some. Only {@code version},
 * {@code epoch} and {@code phase} are required; {@code primary} may be null or absent (failover in progress).
 * {@code leader} and {@code age_ms} (how fresh the answering coordinator's knowledge is) are optional: older
 * coordinators do not send them.
 */
final class TopologyParser {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TopologyParser() {
    }

    /**
     * @throws IllegalArgumentException naming the field that is missing or malformed
     */
    static Topology parse(final String json) {
        final JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (final JsonProcessingException ex) {
            throw new IllegalArgumentException("topology is not JSON: " + ex.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("topology is not a JSON object: " + abbreviate(json));
        }
        final JsonNode cluster = root.get("cluster");
        final JsonNode leader = root.get("leader");
        return new Topology(
            cluster == null || cluster.isNull() ? "" : cluster.asText(),
            requiredLong(root, "version"),
            requiredLong(root, "epoch"),
            requiredText(root, "phase", "topology"),
            primary(root.get("primary")),
            members(root.get("members")),
            leader == null || leader.isNull() || leader.asBoolean(true),
            root.hasNonNull("age_ms") ? requiredLong(root, "age_ms") : -1);
    }

    private static Member primary(final JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return member(node, "primary", "PRIMARY");
    }

    private static List<Member> members(final JsonNode node) {
        final List<Member> members = new ArrayList<>();
        if (node == null || node.isNull()) {
            return members;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException(
                "topology field 'members' must be an array, got " + abbreviate(node.toString()));
        }
        for (int i = 0; i < node.size(); i++) {
            members.add(member(node.get(i), "members[" + i + "]", "UNKNOWN"));
        }
        return members;
    }

    private static Member member(final JsonNode node, final String where, final String defaultRole) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("topology field '" + where + "' must be an object or null, got " +
                abbreviate(node.toString()));
        }
        final JsonNode role = node.get("role");
        return new Member(
            requiredText(node, "name", where),
            requiredText(node, "jdbc_url", where),
            role == null || role.isNull() ? defaultRole : role.asText());
    }

    private static long requiredLong(final JsonNode parent, final String field) {
        final JsonNode node = parent.get(field);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new IllegalArgumentException("topology field '" + field + "' must be an integer, got " +
                (node == null ? "nothing" : abbreviate(node.toString())));
        }
        return node.asLong();
    }

    private static String requiredText(final JsonNode parent, final String field, final String where) {
        final JsonNode node = parent.get(field);
        if (node == null || !node.isTextual() || node.asText().isEmpty()) {
            throw new IllegalArgumentException(where + " field '" + field + "' must be a non-empty string, got " +
                (node == null ? "nothing" : abbreviate(node.toString())));
        }
        return node.asText();
    }

    private static String abbreviate(final String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
