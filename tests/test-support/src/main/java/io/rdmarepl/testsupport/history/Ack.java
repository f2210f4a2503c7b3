package io.rdmarepl.testsupport.history;

/**
 * One write a client was told committed: row {@code id}, the member that acknowledged it, when the client sent it and
 * when the commit returned ({@link System#nanoTime()}), and the return on the wall clock too, to set it beside other
 * processes' logs (a coordinator's history).
 */
public record Ack(long id, String member, long invokedNs, long acknowledgedNs, long acknowledgedAtMs) {
}
