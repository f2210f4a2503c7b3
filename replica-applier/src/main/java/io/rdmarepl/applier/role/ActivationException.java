package io.rdmarepl.applier.role;

/**
 * An activation that was allowed but could not start the applier (replica or ring unreachable). Not an
 * {@link IllegalStateException}: the request was right, this host failed it, and it may be retried.
 */
public final class ActivationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ActivationException(String message, Throwable cause) {
        super(message, cause);
    }
}
