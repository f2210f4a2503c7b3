package io.rdmarepl.config;

import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;

import java.util.List;

/** A small configuration of every shape of key, as a role declares its own. */
final class ExampleKeys {
    static final ConfigKey<String> SOURCE_NAME = key("source.name", ValueTypes.nonEmptyText(), "primary", "name of the primary");
    static final ConfigKey<Integer> RING_CAPACITY_BYTES = key("ring.capacity.bytes", ValueTypes.powerOfTwo(4096, 1 << 30),
            "67108864", "ring data area in bytes");
    static final ConfigKey<Long> GROUP_MAX_MS = key("apply.group.max.ms", ValueTypes.wholeNumber(0, 60_000), "20",
            "longest a group stays open");
    static final ConfigKey<Boolean> READ_ONLY = key("replica.read.only", ValueTypes.bool(), "true", "read-only for clients");
    static final ConfigKey<String> SYNCHRONOUS_COMMIT = key("apply.synchronous.commit",
            ValueTypes.oneOf("off", "local", "on"), "off", "synchronous_commit of the sessions");
    static final ConfigKey<List<String>> STANDBYS = key("standbys",
            ValueTypes.list().where(l -> !l.isEmpty(), "name at least one standby"), "", "standby names");
    static final ConfigKey<String> STANDBY_URI = key("standby.<name>.uri", ValueTypes.nonEmptyText(), "", "the standby's ring");
    static final ConfigKey<String> PASSWORD = secret("database.password", ValueTypes.text(), "", "its password");
    static final ConfigKey<String> TOKEN = secret("admin.token", ValueTypes.text().where(t -> t.isEmpty() || t.length() >= 8,
            "must be empty or at least 8 characters"), "", "bearer token");
    static final ConfigKey<String> DEBEZIUM = ConfigKey.prefix("debezium.*", "passed to the engine as is");

    static final ConfigKeys ALL = ConfigKeys.of("example", "docs/configuration/example.md", SOURCE_NAME, RING_CAPACITY_BYTES,
            GROUP_MAX_MS, READ_ONLY, SYNCHRONOUS_COMMIT, STANDBYS, STANDBY_URI, PASSWORD, TOKEN, DEBEZIUM);

    private ExampleKeys() {
    }
}
