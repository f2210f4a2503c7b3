package io.rdmarepl.harness.bench.lag.catchup;

import io.rdmarepl.harness.bench.lag.Endpoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of a {@code bench lag --catch-up} run, validated by {@code bench lag}'s own option checks; frozen.
 *
 * @param primary        null unless {@code --primary}/{@code --replica} attach to running servers
 * @param nativeSync     synchronous_commit of both replica-side applies (the subscription's; rdmarepl's applier's)
 * @param primaryMasked  {@code --primary} as given, password masked (report only)
 * @param replicaMasked  {@code --replica} as given, password masked (report only)
 * @param localSockets   rdmarepl's shipper and applier reach the embedded servers over their Unix-domain sockets
 */
public record CatchUpSettings(CatchUpOptions options, int rounds, int clients, List<String> transports, String nativeSync,
                              boolean fsync, Endpoint primary, Endpoint replica, int capturePollMs, Map<String, String> shipperSettings,
                              Map<String, String> applierSettings, String json, String primaryMasked, String replicaMasked,
                              boolean localSockets) {

    public CatchUpSettings {
        transports = List.copyOf(transports);
        shipperSettings = Map.copyOf(shipperSettings);
        applierSettings = Map.copyOf(applierSettings);
    }

    boolean attached() {
        return primary != null;
    }

    /** For the report. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", "catch-up");
        m.put("catch_up_seconds", options.seconds());
        m.put("script", options.script());
        m.put("scale", options.scale());
        m.put("clients", clients);
        m.put("rounds", rounds);
        m.put("apply_workers", options.applyWorkers());
        m.put("transports", transports);
        m.put("native_sync", nativeSync);
        m.put("rdmarepl_apply_synchronous_commit", nativeSync);
        m.put("capture_engine", shipperSettings.getOrDefault("capture.engine", "pgoutput"));
        m.put("capture_poll_ms", capturePollMs);
        m.put("local_connections", localSockets ? "unix socket" : "tcp");
        m.put("shipper", new java.util.TreeMap<>(shipperSettings));
        m.put("applier", new java.util.TreeMap<>(applierSettings));
        m.put("servers", attached() ? "attached" : "embedded");
        m.put("fsync", attached() ? null : fsync ? "on" : "off");
        m.put("primary", primaryMasked);
        m.put("replica", replicaMasked);
        m.put("json", json);
        return m;
    }
}
