package io.rdmarepl.cli.runbook;

import io.rdmarepl.cli.RdmareplCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Consumer;
import picocli.CommandLine;

/** One {@code rdmarepl ...} invocation through the real command line, with its exit code and captured output. */
record Run(int code, String out, String err) {
    static Run of(String... args) {
        return of(commandLine -> { }, args);
    }

    /** @param prepare adjusts the command line before it runs, e.g. gives a command a terminal to ask on */
    static Run of(Consumer<CommandLine> prepare, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = RdmareplCommand.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        prepare.accept(commandLine);
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** Gives the named action command a terminal that answers {@code answer} and records the question asked. */
    static Consumer<CommandLine> answering(String command, String answer, StringBuilder asked) {
        return commandLine -> ((ActionCommand) commandLine.getSubcommands().get(command).getCommand()).terminal = prompt -> {
            asked.append(prompt);
            return answer;
        };
    }
}
