package io.rdmarepl.shipper.lease;

/**
 * A lease file that cannot be read as one: not a lease file, another layout version, a record torn by a writer that
 * is still writing (or died writing), a bad CRC. The message names the file, the record and the values.
 */
public final class LeaseFileException extends RuntimeException {
    private final boolean torn;

    public LeaseFileException(String message) {
        this(message, false);
    }

    LeaseFileException(String message, boolean torn) {
        super(message);
        this.torn = torn;
    }

    /** A record caught while its writer wrote it (odd or moving sequence): reading again later may succeed. */
    public boolean torn() {
        return torn;
    }
}
