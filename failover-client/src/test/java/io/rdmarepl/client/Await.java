package io.rdmarepl.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Asynchronous assertions with a deadline, failing with a sentence: "pgb is the primary after 5000 ms".
 */
final class Await {
    private static final long POLL_MS = 2;

    private Await() {
    }

    /**
     * @return how long it took, in ms
     */
    static long until(final String what, final Duration timeout, final BooleanSupplier condition) {
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs >= 0) {
                throw new AssertionError("expected: " + what + " within " + timeout.toMillis() + " ms");
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, ex);
            }
        }
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
