package io.rdmarepl.cli.runbook;

/**
 * The runbook commands' exit codes, and the help lines that document them. Scripts branch on these, so they
 * never change meaning: add new codes, do not renumber.
 */
final class ExitCodes {
    static final int DONE = 0;
    static final int REFUSED = 1;
    static final int BAD_USAGE = 2;
    static final int UNREACHABLE = 3;
    static final int NOT_AUTHORISED = 4;

    static final String HEADING = "%nExit codes:%n";
    static final String DONE_LINE = "0:done";
    static final String REFUSED_LINE = "1:refused by the coordinator (reason printed) or not confirmed; nothing changed";
    static final String FAILED_READ_LINE = "1:the coordinator failed to answer (reason printed)";
    static final String BAD_USAGE_LINE = "2:bad usage, or a request the coordinator rejected as malformed";
    static final String UNREACHABLE_LINE =
            "3:coordinator unreachable or no answer in time (check `rdmarepl coordinate` and --coordinator)";
    static final String NOT_AUTHORISED_LINE = "4:not authorised: missing or wrong --token / RDMAREPL_ADMIN_TOKEN";

    private ExitCodes() {
    }
}
