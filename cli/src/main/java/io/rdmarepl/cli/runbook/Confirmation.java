package io.rdmarepl.cli.runbook;

import java.util.function.Supplier;

/**
 * The "are you sure" step of failover, promote and fence. Only a typed "yes" (or --yes) lets the action through;
 * without a terminal nobody can type it, so the command refuses rather than acting on a script's behalf.
 */
final class Confirmation {
    private Confirmation() {
    }

    /**
     * @param action   what would be done, for the refusal, e.g. "fail over cluster main"
     * @param question asked only when there is a terminal to ask on (building it may ask the coordinator)
     */
    static void require(boolean yes, Terminal terminal, String action, Supplier<String> question) {
        if (yes) {
            return;
        }
        if (terminal == null) {
            throw new RunbookFailure(ExitCodes.REFUSED, "refusing to " + action + " without confirmation: there is no terminal to "
                    + "ask on; add --yes to confirm; nothing was sent to the coordinator");
        }
        String answer = terminal.ask(question.get() + " Type 'yes': ");
        if (answer == null || !answer.strip().equalsIgnoreCase("yes")) {
            throw new RunbookFailure(ExitCodes.REFUSED, "not confirmed (answered '" + (answer == null ? "" : answer.strip())
                    + "'); nothing was sent to the coordinator");
        }
    }
}
