package io.rdmarepl.format;

/**
 * The encoder needs more bytes than the caller gave it. Nothing has been written past the caller's
 * {@code maxLength}; the bytes already written inside it are garbage and the record must be restarted.
 * The message names the record kind, the field and the sizes.
 */
public class RecordCapacityException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int required;
    private final int remaining;

    public RecordCapacityException(String message, int required, int remaining) {
        super(message);
        this.required = required;
        this.remaining = remaining;
    }

    /** Bytes the field needed. */
    public int required() {
        return required;
    }

    /** Bytes that were left before {@code maxLength}. */
    public int remaining() {
        return remaining;
    }
}
