package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Option;

/**
 * A control action (failover, promote, fence): confirm, {@code POST} it with the token, print the coordinator's
 * message. The coordinator decides and may refuse; this side only asks for it and reports the answer.
 */
abstract class ActionCommand extends RunbookCommand {
    @Option(names = "--yes", description = "do not ask for confirmation (needed when there is no terminal, e.g. in scripts)")
    boolean yes;

    /** The console the confirmation is asked on; null when the process has none. */
    Terminal terminal = Terminal.system();

    ActionCommand() {
        super(ACTION_TIMEOUT);
    }

    /** The admin path, e.g. "/failover". */
    abstract String path();

    abstract JsonNode body();

    /** What would be done, for a refusal: "fail over cluster main". */
    abstract String action();

    /** The confirmation question, given the coordinator's current status, without "Type 'yes'". */
    abstract String question(JsonNode status);

    @Override
    final int run() throws InterruptedException {
        CoordinatorAdmin admin = admin();
        Confirmation.require(yes, terminal, action(), () -> question(statusForQuestion()));
        JsonNode answer = admin.post(path(), body());
        if (options.json()) {
            printJson(answer);
        } else {
            out().println(text(answer));
        }
        return ExitCodes.DONE;
    }

    /** The answer for a human: its message. */
    String text(JsonNode answer) {
        return answer.hasNonNull("message") ? answer.get("message").asText() : Table.cell(answer.get("result"));
    }

    private JsonNode statusForQuestion() {
        try {
            return status();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunbookFailure(ExitCodes.REFUSED, "interrupted while reading the coordinator's status; nothing was sent");
        }
    }
}
