package io.rdmarepl.cli.runbook;

/**
 * An expected way for a runbook command to end without doing its job (the coordinator refused, is unreachable,
 * wants a token...): a one-line message for the on-call engineer and the exit code scripts branch on. Printed
 * without a stack trace, because none of these is a bug.
 */
final class RunbookFailure extends RuntimeException {
    private final int exitCode;

    RunbookFailure(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
