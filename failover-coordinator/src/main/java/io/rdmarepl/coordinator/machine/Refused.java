package io.rdmarepl.coordinator.machine;

/**
 * An operator's request the coordinator will not carry out; the message says why and what to do instead.
 * An {@link IllegalStateException}, so admin endpoints answer it with 409.
 */
public final class Refused extends IllegalStateException {
    public Refused(String message) {
        super(message);
    }
}
