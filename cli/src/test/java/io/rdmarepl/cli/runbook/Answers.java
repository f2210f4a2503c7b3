package io.rdmarepl.cli.runbook;

/** Canned coordinator answers, shaped as {@code Coordinator.status()} and the {@code /history} handler produce them. */
final class Answers {
    /** Healthy cluster "main": pga primary, pgb a qualifying standby, pgc's applier unreachable. */
    static final String STATUS = """
            {"role":"coordinator","coordinator":"coord-1","leader":true,"store":"file /var/lib/rdmarepl/state.json",
             "cluster":"main","epoch":3,"phase":"HEALTHY","primary":"pga",
             "last_decision":"primary pga answers (wal 0/3000148) and ships heartbeats",
             "probe":{"target":"jdbc:postgresql://10.0.0.1/app","failures":0,"error":null,"since_success_ms":40,"wal_lsn":"0/3000148"},
             "members":[
              {"name":"pga","role":"PRIMARY","jdbc_url":"jdbc:postgresql://10.0.0.1/app"},
              {"name":"pgb","role":"STANDBY","jdbc_url":"jdbc:postgresql://10.0.0.2/app","applier":"applying",
               "applied_lsn":"0/3000100","durable_lsn":"0/30000C8","lag_bytes":72,"lag_ms":3,"heartbeat_age_ms":9,"candidate":"yes"},
              {"name":"pgc","role":"STANDBY","jdbc_url":"jdbc:postgresql://10.0.0.3/app","applier":"unreachable: Connection refused",
               "applied_lsn":null,"durable_lsn":null,"lag_bytes":null,"lag_ms":null,"heartbeat_age_ms":null,
               "candidate":"pgc's applier is unreachable (Connection refused)"}],
             "last_failover":{"result":"promoted","new_primary":"pga","epoch":3,"message":"pga promoted at epoch 3 in 212 ms"},
             "last_error":null}
            """;

    /** Three changes, deliberately not in time order. */
    static final String HISTORY = """
            {"history":[
             {"at_ms":1714532412345,"from":"HEALTHY","to":"SUSPECT","reason":"primary pga failed 3 probes","epoch":1},
             {"at_ms":1714532400000,"from":"uninitialised","to":"HEALTHY","reason":"cluster initialised with primary pga","epoch":1},
             {"at_ms":1714532413000,"from":"SUSPECT","to":"FENCING","reason":"failing over to pgb","epoch":1}]}
            """;

    static final String PROMOTED = """
            {"result":"promoted","new_primary":"pgb","epoch":4,"detection_ms":0,"promotion_ms":180,"applied_lsn":"0/3000148",
             "old_primary_wal_lsn":"0/3000148","fenced":"pga refuses writes",
             "message":"pgb promoted at epoch 4 in 180 ms; pga refuses writes"}
            """;

    private Answers() {
    }
}
