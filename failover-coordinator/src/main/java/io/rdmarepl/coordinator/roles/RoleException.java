package io.rdmarepl.coordinator.roles;

/** A shipper or applier admin endpoint did not do what was asked; the message names it and says why. */
public final class RoleException extends RuntimeException {
    public RoleException(String message) {
        super(message);
    }
}
