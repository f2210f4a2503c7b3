package io.rdmarepl.control;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The body of a shipper's {@code POST /fence}: {@code {"reason": "..."}}. The shipper also takes any text (it is the
 * reason) or no body, for an operator's curl.
 *
 * @param reason why the shipper is told to stop, for its log and status; empty when none was given
 */
public record FenceRequest(String reason) {
    public FenceRequest {
        reason = reason == null ? "" : reason;
    }

    /** The JSON the coordinator sends. */
    public String toJson() {
        return ControlJson.write(this);
    }

    /** What a shipper received: the reason field, else the body as sent, else an empty reason. Never refuses. */
    public static FenceRequest parse(String body) {
        if (body == null || body.isBlank()) {
            return new FenceRequest("");
        }
        JsonNode json = ControlJson.tree(body);
        if (json != null && json.isObject() && json.path("reason").isTextual()) {
            return new FenceRequest(json.get("reason").asText());
        }
        return new FenceRequest(body.strip());
    }
}
