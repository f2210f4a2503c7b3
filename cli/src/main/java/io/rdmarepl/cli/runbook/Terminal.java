package io.rdmarepl.cli.runbook;

import java.io.Console;

/** Where a destructive command asks its question: the real console, or in tests an answer given in advance. */
@FunctionalInterface
interface Terminal {
    /** Shows {@code prompt} and returns the line typed, or null at end of input. */
    String ask(String prompt);

    /** The process's console, or null when there is none (piped, cron, CI): then nobody can confirm. */
    static Terminal system() {
        Console console = System.console();
        return console == null ? null : prompt -> console.readLine("%s", prompt);
    }
}
