package io.rdmarepl.applier.apply;

/** What a failed group means for the applier. */
public enum FailureCategory {
    /** Connection lost, serialization failure, deadlock, server shutting down: retry the group after a back-off. */
    RETRIABLE,
    /** The replica's schema cannot take the change (missing table or column, a value its type rejects): pause until fixed. */
    SCHEMA,
    /** Anything else (constraint violation, permissions, a broken stream): pause with the error until fixed. */
    PERMANENT
}
