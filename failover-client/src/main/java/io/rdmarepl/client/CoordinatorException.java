package io.rdmarepl.client;

import java.net.URI;

/**
 * One coordinator did not answer with a topology: unreachable, timed out, a bad HTTP status or a malformed body.
 * An expected condition while a coordinator restarts, so it is logged by message, without a stack trace.
 */
final class CoordinatorException extends Exception {
    private final URI coordinator;

    CoordinatorException(final URI coordinator, final String reason) {
        super(coordinator + ": " + reason, null, false, false);
        this.coordinator = coordinator;
    }

    URI coordinator() {
        return coordinator;
    }
}
