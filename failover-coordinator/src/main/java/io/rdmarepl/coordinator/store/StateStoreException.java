package io.rdmarepl.coordinator.store;

/** The state store cannot be read or written; the message names the store and the cause. */
public final class StateStoreException extends RuntimeException {
    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StateStoreException(String message) {
        super(message);
    }
}
