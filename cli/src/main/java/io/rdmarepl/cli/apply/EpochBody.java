package io.rdmarepl.cli.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.OptionalInt;

/** The optional body {@code {"epoch": N}} of {@code POST /activate} and {@code POST /promote}. */
final class EpochBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EpochBody() {
    }

    /**
     * @return the epoch, empty when the body is empty or names none
     * @throws IllegalArgumentException (the endpoint answers 400) when the body is not a JSON object or the epoch
     *                                  is not a positive integer
     */
    static OptionalInt parse(String body) {
        if (body == null || body.isBlank()) {
            return OptionalInt.empty();
        }
        JsonNode document;
        try {
            document = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("body must be a JSON object such as {\"epoch\": 2}: " + e.getOriginalMessage());
        }
        if (document == null || !document.isObject()) {
            throw new IllegalArgumentException("body must be a JSON object such as {\"epoch\": 2}, got " + body.strip());
        }
        JsonNode epoch = document.get("epoch");
        if (epoch == null || epoch.isNull()) {
            return OptionalInt.empty();
        }
        if (!epoch.isIntegralNumber() || !epoch.canConvertToInt() || epoch.asInt() < 1) {
            throw new IllegalArgumentException("epoch must be a positive integer, got " + epoch);
        }
        return OptionalInt.of(epoch.asInt());
    }
}
