package io.rdmarepl.shipper.lease;

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
    private static final String FILE = "file";
    private static final String PRIMARY = "primary";
    private static final String JDBC_URL = "jdbc.url";
    private static final String USER = "user";
    private static final String PASSWORD = "password";

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
        p.setProperty(FILE, file.toString());
        p.setProperty(PRIMARY, primary);
        p.setProperty(JDBC_URL, jdbcUrl);
        p.setProperty(USER, user);
        p.setProperty(PASSWORD, password);
        p.store(out, null);
    }

    /** @throws IllegalArgumentException naming a missing setting */
    static GuardSettings read(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        for (String key : new String[] {FILE, PRIMARY, JDBC_URL, USER, PASSWORD}) {
            if (p.getProperty(key) == null) {
                throw new IllegalArgumentException("the lease guard's settings on standard input lack " + key
                        + " (it is started by rdmarepl ship; run rdmarepl lease-guard --config FILE yourself)");
            }
        }
        return new GuardSettings(Path.of(p.getProperty(FILE)), p.getProperty(PRIMARY), p.getProperty(JDBC_URL), p.getProperty(USER),
                p.getProperty(PASSWORD));
    }

    @Override
    public String toString() {
        return "GuardSettings[file=" + file + ", primary=" + primary + ", user=" + user + "]"; // no password
    }
}
