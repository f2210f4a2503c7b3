package io.rdmarepl.shipper.lease;

import static io.rdmarepl.config.ConfigKey.key;
import static io.rdmarepl.config.ConfigKey.secret;
import static io.rdmarepl.config.ValueTypes.nonEmptyText;
import static io.rdmarepl.config.ValueTypes.text;

import io.rdmarepl.config.ConfigException;
import io.rdmarepl.config.ConfigKey;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.config.ConfigReader;
import io.rdmarepl.config.ConfigSource;
import io.rdmarepl.shipper.config.ShipperConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What a lease guard needs: its lease file, the primary the lease is of, and how to log in there to fence it. A guard
 * the shipper starts reads them from its standard input (the password never shows on a command line); one started
 * apart takes them from the shipper's configuration file.
 *
 * @param file    the lease file ({@link ShipperConfig#leaseFile()})
 * @param primary {@code host:port/database}, as the lease file's header names it
 */
public record GuardSettings(Path file, String primary, String jdbcUrl, String user, String password) {
    private static final ConfigKey<String> FILE = key("file", nonEmptyText(), "", "the lease file");
    private static final ConfigKey<String> PRIMARY = key("primary", nonEmptyText(), "",
            "host:port/database of the primary the lease is of");
    private static final ConfigKey<String> JDBC_URL = key("jdbc.url", nonEmptyText(), "", "where to fence the primary");
    private static final ConfigKey<String> USER = key("user", nonEmptyText(), "", "who fences it");
    private static final ConfigKey<String> PASSWORD = secret("password", text(), "", "its password");
    /** Written by the shipper that starts the guard, never by hand: no documentation page. */
    private static final ConfigKeys KEYS = ConfigKeys.of("lease guard", null, FILE, PRIMARY, JDBC_URL, USER, PASSWORD);

    public static GuardSettings of(ShipperConfig config) {
        return new GuardSettings(config.leaseFile().toAbsolutePath(), config.primaryAddress(), config.jdbcUrl(), config.databaseUser(),
                config.databasePassword());
    }

    /** The lock a running guard holds on its lease file, so a second one for it never runs. */
    public Path lockFile() {
        return file.resolveSibling(file.getFileName() + ".lock");
    }

    public PrimaryFence fence() {
        return new PrimaryFence(jdbcUrl, user, password);
    }

    void write(OutputStream out) throws IOException {
        Properties p = new Properties();
        p.setProperty(FILE.name(), file.toString());
        p.setProperty(PRIMARY.name(), primary);
        p.setProperty(JDBC_URL.name(), jdbcUrl);
        p.setProperty(USER.name(), user);
        p.setProperty(PASSWORD.name(), password);
        p.store(out, null);
    }

    /** @throws ConfigException naming every missing or unknown setting */
    static GuardSettings read(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        ConfigReader r = new ConfigReader(ConfigSource.of("the lease guard's settings on standard input (written by rdmarepl ship;"
                + " run rdmarepl lease-guard --config FILE yourself)", p), KEYS);
        String file = r.get(FILE);
        GuardSettings settings = new GuardSettings(file == null ? null : Path.of(file), r.get(PRIMARY), r.get(JDBC_URL), r.get(USER),
                r.get(PASSWORD));
        r.rejectUnknownKeys();
        r.throwIfInvalid();
        return settings;
    }

    @Override
    public String toString() {
        return "GuardSettings[file=" + file + ", primary=" + primary + ", user=" + user + "]"; // no password
    }
}
