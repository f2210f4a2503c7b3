package io.rdmarepl.testsupport;

import io.rdmarepl.testsupport.net.NetHost;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@code postgres} binary run on a {@link NetHost}: {@code ip netns exec <namespace> postgres -D data -p port -c
 * key=value...}, in the foreground as a child of this JVM (ip execs it: the child is the postmaster). It listens on
 * the host's loopback and its address, so that a sidecar on the same host reaches it at 127.0.0.1 whatever the
 * network does, and other hosts only through the network. The data directory was made by initdb beforehand.
 */
final class NamespacedPostmaster implements Postmaster {
    private static final Duration POLL = Duration.ofMillis(50);
    private final Process process;

    private NamespacedPostmaster(Process process) {
        this.process = process;
    }

    /**
     * Starts the postmaster and waits until it accepts a connection on {@code host}'s address.
     *
     * @param postgres the {@code postgres} executable of the extracted binaries
     */
    static NamespacedPostmaster start(NetHost host, Path postgres, Path dataDirectory, int port, Map<String, String> settings,
                                      Duration startupTimeout, Path logFile) throws IOException {
        trustNetwork(dataDirectory, host);
        List<String> command = new ArrayList<>();
        if (isRoot()) {
            // PostgreSQL refuses to run as root: in a user namespace of its own root is unmapped, as zonky does it
            command.addAll(List.of("unshare", "-U"));
        }
        command.addAll(List.of(postgres.toString(), "-D", dataDirectory.toString(), "-p", Integer.toString(port)));
        settings.forEach((key, value) -> {
            command.add("-c");
            command.add(key + "=" + unquoted(value));
        });
        Process process = host.processBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(logFile.toFile()))
                .start();
        NamespacedPostmaster postmaster = new NamespacedPostmaster(process);
        long deadlineNs = System.nanoTime() + startupTimeout.toNanos();
        String url = "jdbc:postgresql://" + host.address() + ":" + port + "/postgres";
        Properties properties = new Properties();
        properties.setProperty("user", PostgresServer.SUPERUSER);
        properties.setProperty("connectTimeout", "2");
        while (true) {
            try (Connection ignored = DriverManager.getConnection(url, properties)) {
                return postmaster;
            } catch (SQLException notYet) {
                boolean exited = !process.isAlive();
                if (exited || System.nanoTime() - deadlineNs > 0) {
                    process.destroyForcibly();
                    throw new IOException("postgres on " + host + " did not accept connections at " + url + " within "
                            + startupTimeout.toMillis() + " ms" + (exited ? " (it exited)" : "") + ": " + notYet.getMessage());
                }
                LockSupport.parkNanos(POLL.toNanos());
            }
        }
    }

    /**
     * Lets the hosts of {@code host}'s network (its /24) in as initdb let in 127.0.0.1: trust, for normal and replication
     * connections. Idempotent.
     */
    static void trustNetwork(Path dataDirectory, NetHost host) throws IOException {
        String subnet = host.address().substring(0, host.address().lastIndexOf('.')) + ".0/24";
        Path hba = dataDirectory.resolve("pg_hba.conf");
        String lines = "host all all " + subnet + " trust\nhost replication all " + subnet + " trust\n";
        if (!Files.readString(hba).contains(lines)) {
            Files.writeString(hba, "\n# the hosts of the test network\n" + lines, StandardOpenOption.APPEND);
        }
    }

    /** A value quoted for pg_ctl's command line (zonky's way: {@code ''} for empty) goes to postgres unquoted. */
    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("'") && value.endsWith("'") ? value.substring(1, value.length() - 1) : value;
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** SIGINT: PostgreSQL's fast shutdown (SIGTERM, what Process.destroy sends, would wait for every client). */
    @Override
    public void stop() throws IOException {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).redirectErrorStream(true).start();
            kill.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping postgres " + process.pid(), e);
        }
    }
}
