package io.rdmarepl.cli;

import picocli.CommandLine;

/**
 * Prints failures as one line naming what went wrong, without a stack trace: expected conditions
 * (a missing file, a bad option value) are not bugs. Set {@code RDMAREPL_DEBUG=1} for the trace.
 */
public final class FailureHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        commandLine.getErr().println("rdmarepl: " + describe(e));
        if (System.getenv("RDMAREPL_DEBUG") != null) {
            e.printStackTrace(commandLine.getErr());
        }
        return e instanceof IllegalArgumentException ? 2 : 1;
    }

    private static String describe(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
