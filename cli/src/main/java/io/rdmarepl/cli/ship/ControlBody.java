package io.rdmarepl.cli.ship;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the optional JSON bodies of the shipper's control actions; a malformed one is a bad request (400). */
final class ControlBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ControlBody() {
    }

    /**
     * {@code POST /activate}: {@code {"epoch": N}}, N a positive whole number, or no body.
     *
     * @return the epoch, or null when none was given
     * @throws IllegalArgumentException naming what is wrong with the body
     */
    static Integer epoch(String body) {
        JsonNode json = object(body, "{\"epoch\": 7}");
        if (json == null || !json.has("epoch") || json.get("epoch").isNull()) {
            return null;
        }
        JsonNode epoch = json.get("epoch");
        if (!epoch.isIntegralNumber() || !epoch.canConvertToInt() || epoch.intValue() <= 0) {
            throw new IllegalArgumentException("epoch must be a positive whole number, got " + epoch);
        }
        return epoch.intValue();
    }

    /**
     * {@code POST /fence}: {@code {"reason": "..."}}, or any text, or no body.
     *
     * @return what to log as the reason: the reason field, else the body as sent, else an empty string
     */
    static String reason(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode json = JSON.readTree(body);
            if (json != null && json.isObject() && json.path("reason").isTextual()) {
                return json.get("reason").asText();
            }
        } catch (JsonProcessingException e) {
            // plain text: it is the reason
        }
        return body.strip();
    }

    private static JsonNode object(String body, String example) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode json = JSON.readTree(body);
            if (json != null && json.isObject()) {
                return json;
            }
        } catch (JsonProcessingException e) {
            // reported below
        }
        throw new IllegalArgumentException("the body must be a JSON object like " + example + " (or empty), got: "
                + (body.length() > 80 ? body.substring(0, 80) + "..." : body.strip()));
    }
}
