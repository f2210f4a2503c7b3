package io.rdmarepl.harness.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.channel.ChannelUri;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The benchmark's reader process: started with this JVM's classpath, killed on close whatever happened. */
final class ChildReader implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final List<String> seen = new ArrayList<>();

    private final ChannelUri uri;

    private ChildReader(Process process, ChannelUri uri) {
        this.process = process;
        this.uri = uri;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static ChildReader start(ChannelUri uri, int capacity, String idle, ChannelSecurity security) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
        // the reader runs the same transport tuning as this process (e.g. rdmarepl.softrdma.receive.spin.us)
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("rdmarepl.softrdma."))
                .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                ChannelBenchReader.class.getName(), uri.text(), Integer.toString(capacity), idle));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (security != null) {
            builder.environment().put(ChannelSecurity.SECRET_ENV, security.toHex());
        }
        Process process = builder.start();
        ChildReader child = new ChildReader(process, uri);
        child.awaitLine(ChannelBenchReader.READY);
        return child;
    }

    /** Blocks until the reader prints its result, and returns it. */
    @SuppressWarnings("unchecked")
    Map<String, Object> awaitResult() throws IOException {
        String line = awaitLine(ChannelBenchReader.RESULT);
        return new ObjectMapper().readValue(line.substring(ChannelBenchReader.RESULT.length()), Map.class);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    private String awaitLine(String prefix) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
            seen.add(line);
        }
        throw new IllegalStateException("benchmark reader process exited (code " + exitCode() + ") before printing "
                + prefix.trim() + (seen.isEmpty() ? "" : "; it printed: " + String.join(" | ", seen)));
    }

    private String exitCode() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Lets a finished reader exit (it removes its ring), stops one that is not, and removes what it left. */
    @Override
    public void close() throws IOException {
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            if (uri.path() != null) {
                Files.deleteIfExists(uri.path());
            }
        }
    }
}
