package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The body of {@code POST /activate} (shipper and applier) and {@code POST /promote} (applier): {@code {"epoch": N}}.
 * The roles also take an empty body (no epoch), for an operator's curl.
 *
 * @param epoch the cluster's epoch, a positive whole number; null when none was given
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EpochRequest(Integer epoch) {
    private static final String EXAMPLE = "{\"epoch\": 7}";

    public EpochRequest {
        if (epoch != null && epoch < 1) {
            throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch);
        }
    }

    /** The JSON the coordinator sends. */
    public String toJson() {
        return ControlJson.write(this);
    }

    /**
     * What a role received.
     *
     * @throws IllegalArgumentException (the endpoint answers 400) naming what is wrong: not a JSON object, or an
     *                                  epoch that is not a positive integer
     */
    public static EpochRequest parse(String body) {
        JsonNode json = ControlJson.objectOrEmpty(body, EXAMPLE);
        JsonNode epoch = json == null ? null : json.get("epoch");
        if (epoch == null || epoch.isNull()) {
            return new EpochRequest(null);
        }
        // checked on the tree: Jackson's own binding would take "7" or 7.0 for 7, and a typo should not pass
        if (!epoch.isIntegralNumber() || !epoch.canConvertToInt()) {
            throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch);
        }
        return new EpochRequest(epoch.intValue());
    }
}
