package io.rdmarepl.shipper.lease;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a lease guard as a process of its own: this JVM's {@code java} and class path running {@link LeaseGuardMain},
 * small (serial GC, 48 MB heap, C1 only), in a session of its own ({@code setsid}) so that a signal to the shipper's
 * process group or terminal does not reach it, its output where the shipper's goes, its settings on its standard
 * input. It outlives the shipper: a SIGKILL of the shipper leaves it running.
 */
final class GuardLauncher {
    /** Extra JVM options for the guard, after its own (a larger heap, a log level): {@value}. */
    static final String JAVA_OPTS_ENV = "RDMAREPL_LEASE_GUARD_JAVA_OPTS";
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private GuardLauncher() {
    }

    /** The options {@value #JAVA_OPTS_ENV} holds, split at white space. */
    static List<String> optionsFromEnvironment() {
        String options = System.getenv(JAVA_OPTS_ENV);
        return options == null || options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }

    static Process start(GuardSettings settings, List<String> javaOptions) throws IOException {
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            command.add(SETSID.toString());
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx48m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"));
        command.addAll(javaOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LeaseGuardMain.class.getName());
        command.add(settings.file().toString()); // for ps; the settings come on standard input
        Process process = new ProcessBuilder(command)
                .redirectInput(Redirect.PIPE)
                .redirectOutput(Redirect.INHERIT)
                .redirectError(Redirect.INHERIT)
                .start();
        try (OutputStream in = process.getOutputStream()) {
            settings.write(in);
        } catch (IOException e) {
            process.destroyForcibly();
            throw e;
        }
        return process;
    }
}
