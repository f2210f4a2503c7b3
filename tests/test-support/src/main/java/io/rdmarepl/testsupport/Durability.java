package io.rdmarepl.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How much a server flushes. Embedded PostgreSQL normally runs with fsync and synchronous_commit off;
 * a test chooses here, and {@link PostgresServer#durability()} says what a server runs with.
 */
public enum Durability {
    /**
     * fsync, synchronous_commit and full_page_writes off: for ordinary tests. Loses data on an OS crash.
     * Logical decoding only sees flushed WAL, and with synchronous_commit off a commit is flushed by the WAL
     * writer up to wal_writer_delay (200 ms) later: a test that reads a slot right after a commit either runs
     * that commit with {@code SET synchronous_commit = on} or waits for the change with a deadline.
     */
    FAST("off"),

    /** fsync, synchronous_commit and full_page_writes on: for crash tests, the demo and benchmarks. */
    DURABLE("on");

    private final Map<String, String> settings;

    Durability(final String value) {
        final Map<String, String> map = new LinkedHashMap<>();
        map.put("fsync", value);
        map.put("synchronous_commit", value);
        map.put("full_page_writes", value);
        settings = Map.copyOf(map);
    }

    /**
     * @return the server settings this durability stands for, e.g. {@code fsync -> off}.
     */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * @return e.g. "FAST (fsync=off, synchronous_commit=off, full_page_writes=off)".
     */
    public String describe() {
        final String value = settings.get("fsync");
        return name() + " (fsync=" + value + ", synchronous_commit=" + value + ", full_page_writes=" + value + ")";
    }
}
