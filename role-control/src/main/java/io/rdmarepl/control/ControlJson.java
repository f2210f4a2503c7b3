package io.rdmarepl.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The contract's one JSON mapping: the roles' admin endpoints write their answers with it, the coordinator reads them
 * with it. Readers ignore fields they do not know, so either side may add a field without breaking the other (a
 * coordinator and its roles are not always upgraded together).
 */
public final class ControlJson {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ControlJson() {
    }

    /** {@code value} as JSON text. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            // only a record of this package is written: one that cannot be is a bug here, not bad input
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * An admin endpoint's answer as UTF-8 JSON: a record of this package, or a document (a map) such as
     * {@code /status}.
     */
    public static byte[] writeBytes(Object value) throws JsonProcessingException {
        return JSON.writeValueAsBytes(value);
    }

    /**
     * Writes each of {@code answers} once and forgets it: Jackson builds a type's serializer on its first use, by
     * reflection, which a role idle until a failover would otherwise do on the failover's way, on the one CPU the
     * standby's processes share then. A role calls this at start with one answer of every kind it sends.
     *
     * @throws IllegalStateException naming the type that cannot be written (a bug here, not bad input)
     */
    public static void warm(Object... answers) {
        for (Object answer : answers) {
            write(answer);
        }
    }

    /**
     * An answer the other side sent, already parsed.
     *
     * @throws IllegalArgumentException naming the type when the document does not fit it
     */
    public static <T> T read(JsonNode answer, Class<T> type) {
        try {
            // an empty answer reads as an empty object: its fields take their defaults, as a field left out would
            boolean empty = answer == null || answer.isMissingNode() || answer.isNull();
            return JSON.treeToValue(empty ? JSON.createObjectNode() : answer, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A request body that must be a JSON object, or empty.
     *
     * @param example shown in the error, e.g. {@code {"epoch": 7}}
     * @return the object, or null when the body is empty
     * @throws IllegalArgumentException (the endpoint answers 400) when the body is not a JSON object
     */
    static JsonNode objectOrEmpty(String body, String example) {
        if (body == null || body.isBlank()) {
            return null;
        }
        JsonNode json = tree(body);
        if (json != null && json.isObject()) {
            return json;
        }
        throw new IllegalArgumentException("the body must be a JSON object like " + example + " (or empty), got: "
                + (body.length() > 80 ? body.substring(0, 80) + "..." : body.strip()));
    }

    /** {@code body} parsed, or null when it is not JSON. */
    static JsonNode tree(String body) {
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
