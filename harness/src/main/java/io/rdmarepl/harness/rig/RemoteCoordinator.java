package io.rdmarepl.harness.rig;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.coordinator.state.HistoryEntry;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.cluster.CoordinatorHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A coordinator in a process of its own (on a host of its own), read over its admin endpoint: {@code /status} and
 * {@code /history}. Waits poll every 50 ms, not faster: the requests cost the coordinator CPU, during
 * a failover too, and the figures come from its history and the client, not from when a wait returns.
 */
public final class RemoteCoordinator implements CoordinatorView {
    private static final Duration POLL = Duration.ofMillis(50);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private final CoordinatorHttp http;
    private final String standby;

    /** @param standby the member a failover of the initial primary promotes */
    public RemoteCoordinator(CoordinatorHttp http, String standby) {
        this.http = http;
        this.standby = standby;
    }

    @Override
    public String url() {
        return http.base();
    }

    @Override
    public Map<String, Object> status() {
        return JSON.convertValue(call(http::status), MAP);
    }

    @Override
    public List<HistoryEntry> history() {
        List<HistoryEntry> entries = new ArrayList<>();
        for (JsonNode e : call(http::history)) {
            entries.add(new HistoryEntry(e.path("at_ms").asLong(), e.path("from").asText(), e.path("to").asText(), e.path("reason").asText(),
                    e.path("epoch").asInt()));
        }
        return entries;
    }

    @Override
    public String standby() {
        return standby;
    }

    @Override
    public Map<String, Object> awaitPhase(String phase, Duration timeout) {
        return Await.until("the coordinator " + phase, timeout, POLL, this::status, status -> phase.equals(status.get("phase")));
    }

    @Override
    public Map<String, Object> awaitLastFailover(Duration timeout) {
        return Await.until("the coordinator's last_failover report", timeout, POLL, this::status,
                status -> status.get("last_failover") != null);
    }

    private interface HttpCall {
        JsonNode get() throws IOException, InterruptedException;
    }

    private JsonNode call(HttpCall call) {
        try {
            return call.get();
        } catch (IOException e) {
            throw new UncheckedIOException("coordinator " + http.base() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted asking the coordinator " + http.base(), e));
        }
    }
}
