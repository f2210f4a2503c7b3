package io.rdmarepl.coordinator.fence;

/** An old primary could not be fenced: the failover stops before promoting anything. */
public final class FenceException extends RuntimeException {
    public FenceException(String message) {
        super(message);
    }
}
