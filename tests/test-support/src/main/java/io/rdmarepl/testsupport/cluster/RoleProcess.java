package io.rdmarepl.testsupport.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.rdmarepl.testsupport.net.NetHost;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One {@code rdmarepl ship|apply|coordinate --config FILE} in its own JVM, on this JVM's classpath (which must hold
 * the {@code cli} module: the end-to-end tests', the harness jar), its stdout and stderr written to a log file of its
 * own, in this JVM's network namespace or on a host of a test network. {@link #kill()} is SIGKILL; {@link #stop} is
 * SIGTERM, as an operator or a supervisor would send.
 */
public final class RoleProcess {
    /**
     * The JVM options of a role by default: small and quick to start, since two of these share two cores with two
     * PostgreSQL servers and the test.
     */
    public static final List<String> SMALL_JVM = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** The JVM's own defaults, as the packaged systemd units run the roles (no RDMAREPL_JAVA_OPTS). */
    public static final List<String> DEFAULT_JVM = List.of();
    /**
     * What the launcher, {@code packaging/bin/rdmarepl}, gives a role before any RDMAREPL_JAVA_OPTS: the coordinator
     * runs the C1 compiler only (docs/design.md, "Failover in a cold process"). Every role process starts with these,
     * then its {@code jvmOptions}, so a layout of processes fails over as the packaged units do.
     */
    static final java.util.Map<String, List<String>> LAUNCHER_ROLE_JVM = java.util.Map.of("coordinate", List.of("-XX:TieredStopAtLevel=1"));
    /**
     * The environment variable of the cluster secret ({@code io.rdmarepl.channel.ChannelSecurity.SECRET_ENV}, which this
     * module cannot import: the channel's own tests use this module; the end-to-end tests check that the two agree).
     */
    public static final String CHANNEL_SECRET_ENV = "RDMAREPL_CHANNEL_SECRET";
    private static final String MAIN_CLASS = "io.rdmarepl.cli.RdmareplCommand";
    /** The cluster secret every role of this test run shares (softrdma:// checks it). */
    private static final String CHANNEL_SECRET = newSecret();
    private static final int TAIL_LINES = 40;

    private static String newSecret() {
        byte[] secret = new byte[16];
        new java.security.SecureRandom().nextBytes(secret);
        return java.util.HexFormat.of().formatHex(secret);
    }
    /** Processes still running when this JVM exits (a test that failed hard) are killed with it. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "rdmarepl-role-process-killer"));
    }

    private final String label;
    private final Path logFile;
    private final Process process;

    private RoleProcess(String label, Path logFile, Process process) {
        this.label = label;
        this.logFile = logFile;
        this.process = process;
    }

    /**
     * @param role    {@code ship}, {@code apply} or {@code coordinate}
     * @param label   names the process in messages, e.g. "shipper #2"
     * @param logFile output of the process (replaced)
     */
    public static RoleProcess start(String role, String label, Path config, Path logFile) {
        return start(role, label, config, logFile, null, SMALL_JVM);
    }

    /**
     * Like {@link #start(String, String, Path, Path)}, on {@code host} of a network ({@code ip netns exec}, and its CPUs)
     * unless it is null, with {@code jvmOptions} ({@link #SMALL_JVM}, {@link #DEFAULT_JVM} or others).
     */
    public static RoleProcess start(String role, String label, Path config, Path logFile, NetHost host, List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LAUNCHER_ROLE_JVM.getOrDefault(role, List.of()));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MAIN_CLASS);
        command.add(role);
        command.add("--config");
        command.add(config.toString());
        try {
            Files.createDirectories(logFile.getParent());
            Files.writeString(logFile, "=== " + label + ": " + String.join(" ", command.subList(command.size() - 4, command.size()))
                    + "\n", StandardCharsets.UTF_8);
            ProcessBuilder builder = new ProcessBuilder(host == null ? command : host.command(command))
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(logFile.toFile()));
            builder.environment().put("RDMAREPL_DEBUG", "1");
            builder.environment().put(CHANNEL_SECRET_ENV, CHANNEL_SECRET); // used by softrdma:// rings
            Process process = builder.start();
            LIVE.add(process);
            process.onExit().thenRun(() -> LIVE.remove(process));
            return new RoleProcess(label, logFile, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + label + ": " + command, e);
        }
    }

    /** SIGKILL, then wait for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM (graceful stop); SIGKILL if it is still running after {@code timeout}. */
    public void stop(Duration timeout) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (awaitExit(timeout).isEmpty()) {
            kill();
        }
    }

    /** @return the exit code, or empty if the process still runs after {@code timeout} */
    public OptionalInt awaitExit(Duration timeout) {
        try {
            if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return OptionalInt.of(process.exitValue());
            }
            return OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + label, e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public String label() {
        return label;
    }

    /** @return the URL of its admin endpoint's /status once the process printed it, else null */
    public String statusUrl() {
        for (String line : lines()) {
            int at = line.indexOf("admin http://");
            if (at >= 0) {
                return line.substring(at + "admin ".length()).trim();
            }
        }
        return null;
    }

    /** The whole log so far. */
    public String log() {
        return String.join("\n", lines());
    }

    /** The last lines of its log, for assertion messages. */
    public String tail() {
        List<String> lines = lines();
        return "--- " + label + " (pid " + process.pid() + (process.isAlive() ? ", running" : ", exited " + process.exitValue())
                + "), last lines of " + logFile + " ---\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size())) + "\n";
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(logFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of("(cannot read " + logFile + ": " + e + ")");
        }
    }

    @Override
    public String toString() {
        return label + " (pid " + process.pid() + ")";
    }

    /** The process's {@code /status} document as one diagnostic line, or "" when it does not run or has no endpoint. */
    public static String statusLine(RoleProcess process) {
        if (process == null || !process.isAlive() || process.statusUrl() == null) {
            return "";
        }
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(HttpRequest.newBuilder(URI.create(process.statusUrl())).timeout(Duration.ofSeconds(2)).build(),
                            HttpResponse.BodyHandlers.ofString());
            return "--- " + process.label() + " /status: " + response.body() + "\n";
        } catch (IOException e) {
            return "--- " + process.label() + " /status: " + e + "\n";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
