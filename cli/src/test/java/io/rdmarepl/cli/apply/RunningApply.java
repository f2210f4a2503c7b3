package io.rdmarepl.cli.apply;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** {@code rdmarepl apply --config FILE} on a thread of the test, with its admin endpoint at hand (the ship tests' standby too). */
public final class RunningApply implements AutoCloseable {
    static final String TOKEN = "apply-test-token";
    private final ApplyCommand command = new ApplyCommand();
    private final StringWriter out = new StringWriter();
    private final Thread thread;
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile int exitCode = -1;

    /** A response's status code and body. */
    public record Answer(int code, String body) {
    }

    private RunningApply(Path config) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        command.onStarted(started::countDown);
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        thread = new Thread(() -> exitCode = commandLine.execute("--config", config.toString()), "rdmarepl-apply-test");
        thread.start();
        if (!started.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("rdmarepl apply did not start within 60 s; output: " + out);
        }
    }

    /** Starts with {@code properties} (admin on a free port, {@link #TOKEN}) written to {@code dir}/applier.properties. */
    public static RunningApply start(Path dir, String properties) throws Exception {
        Path config = dir.resolve("applier.properties");
        Files.writeString(config, "admin.port=0\nadmin.token=" + TOKEN + "\n" + properties);
        return new RunningApply(config);
    }

    String output() {
        return out.toString();
    }

    public Answer get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    Answer post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Answer postWithoutToken(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    private Answer send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(90)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + command.adminAddress().getPort() + path);
    }

    @Override
    public void close() throws InterruptedException {
        command.stop();
        thread.join(TimeUnit.SECONDS.toMillis(60));
        if (exitCode != 0) {
            throw new AssertionError("rdmarepl apply exited with " + exitCode + "; output: " + out);
        }
    }
}
