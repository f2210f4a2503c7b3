package io.rdmarepl.coordinator.store;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rdmarepl.coordinator.state.ClusterState;
import java.io.IOException;
import java.util.List;

/**
 * The JSON form of a {@link ClusterState}, the same in every store: snake_case names ({@code jdbc_url},
 * {@code at_ms}), fields in record order, indented so an operator can read the file or the znode.
 *
 * <p>Reading is strict on purpose: an unknown field fails instead of being dropped, because a coordinator that
 * ignored a field written by a newer one would silently erase it on its next compare-and-set. Errors name the
 * source, the JSON path and the line, e.g. {@code state file /var/lib/rdmarepl/main.json is corrupt: $.members[0].role:
 * Cannot deserialize value of type Role from String "LEADER" ... (line 9, column 17)}.
 */
public final class ClusterStateJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // "members": null would otherwise surface as a bare NullPointerException from List.copyOf
            .withConfigOverride(List.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.FAIL)))
            .build();

    private ClusterStateJson() {
    }

    public static byte[] write(ClusterState state) {
        try {
            return MAPPER.writeValueAsBytes(state);
        } catch (JsonProcessingException e) {
            // records of strings, numbers and lists always serialise; this is a bug, not a store problem
            throw new IllegalStateException("cannot serialise cluster state of " + state.cluster(), e);
        }
    }

    /**
     * @param source names where the bytes came from, for the error, e.g. {@code state file /var/lib/rdmarepl/main.json}
     * @throws StateStoreException "{@code <source> is corrupt: <what is wrong>}"
     */
    public static ClusterState read(byte[] json, String source) {
        return parse(json, source, ClusterState.class);
    }

    /** The state with its version, as the file store keeps it: {@code {"version": n, "state": {...}}}. */
    public static byte[] writeVersioned(long version, ClusterState state) {
        try {
            return MAPPER.writeValueAsBytes(new VersionedDocument(version, state));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise cluster state of " + state.cluster(), e);
        }
    }

    /** @throws StateStoreException "{@code <source> is corrupt: <what is wrong>}" */
    public static Versioned<ClusterState> readVersioned(byte[] json, String source) {
        VersionedDocument document = parse(json, source, VersionedDocument.class);
        if (document.version() < 0) {
            throw new StateStoreException(source + " is corrupt: $.version is " + document.version() + ", must be >= 0");
        }
        if (document.state() == null) {
            throw new StateStoreException(source + " is corrupt: $.state is null");
        }
        return new Versioned<>(document.state(), document.version());
    }

    private static <T> T parse(byte[] json, String source, Class<T> type) {
        if (json.length == 0) {
            throw new StateStoreException(source + " is corrupt: it is empty (0 bytes)");
        }
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StateStoreException(source + " is corrupt: " + describe(e), e);
        } catch (IOException e) {
            // reading from a byte array never does I/O; Jackson declares it anyway
            throw new StateStoreException("cannot parse " + source + ": " + e.getMessage(), e);
        }
    }

    private static String describe(JsonProcessingException e) {
        StringBuilder what = new StringBuilder();
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            what.append(jsonPath(mapping.getPath())).append(": ");
        }
        what.append(e.getOriginalMessage());
        if (e.getLocation() != null) {
            what.append(" (line ").append(e.getLocation().getLineNr())
                    .append(", column ").append(e.getLocation().getColumnNr()).append(')');
        }
        return what.toString();
    }

    private static String jsonPath(List<JsonMappingException.Reference> path) {
        StringBuilder jsonPath = new StringBuilder("$");
        for (JsonMappingException.Reference step : path) {
            if (step.getFieldName() != null) {
                jsonPath.append('.').append(step.getFieldName());
            } else if (step.getIndex() >= 0) {
                jsonPath.append('[').append(step.getIndex()).append(']');
            }
        }
        return jsonPath.toString();
    }

    @JsonPropertyOrder({"version", "state"})
    private record VersionedDocument(long version, ClusterState state) {
    }
}
