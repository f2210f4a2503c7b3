package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every runbook command shares: the coordinator options, and ending with one line on stderr prefixed
 * "rdmarepl &lt;command&gt;: " and the documented exit code instead of a stack trace.
 */
abstract class RunbookCommand implements Callable<Integer> {
    static final Duration READ_TIMEOUT = Duration.ofMillis(5_000);
    /** Generous because the coordinator answers a failover only after fencing, draining and promoting. */
    static final Duration ACTION_TIMEOUT = Duration.ofMillis(90_000);

    @Spec
    CommandSpec spec;

    @Mixin
    CoordinatorOptions options;

    private final Duration defaultTimeout;

    RunbookCommand(Duration defaultTimeout) {
        this.defaultTimeout = defaultTimeout;
    }

    @Override
    public final Integer call() {
        try {
            return run();
        } catch (RunbookFailure failure) {
            err().println(spec.qualifiedName() + ": " + failure.getMessage());
            return failure.exitCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err().println(spec.qualifiedName() + ": interrupted while waiting for the coordinator; check `rdmarepl status`");
            return ExitCodes.REFUSED;
        } finally {
            out().flush();
            err().flush();
        }
    }

    /** Does the command's job and returns its exit code; expected failures are thrown as {@link RunbookFailure}. */
    abstract int run() throws InterruptedException;

    CoordinatorAdmin admin() {
        return new CoordinatorAdmin(options.coordinator(), options.token(), options.timeout(defaultTimeout));
    }

    /** The coordinator's status, with the read timeout whatever the command's own (confirmations read it first). */
    JsonNode status() throws InterruptedException {
        return new CoordinatorAdmin(options.coordinator(), options.token(), options.timeout(READ_TIMEOUT)).get("/status");
    }

    void printJson(JsonNode document) {
        out().println(document.toString());
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
