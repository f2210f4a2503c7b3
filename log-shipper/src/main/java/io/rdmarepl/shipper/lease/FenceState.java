package io.rdmarepl.shipper.lease;

import java.util.Locale;

/** What the lease guard did about the primary, as it writes it into the lease file ({@link LeaseFileDescriptor}). */
public enum FenceState {
    /** Nothing: no lease ran out while this guard watched. */
    NOT_NEEDED(0),
    /** The lease ran out; the first attempt runs. */
    FENCING(1),
    /** An attempt failed; another follows every {@link LeaseGuard#RETRY_INTERVAL_MS} ms until one succeeds. */
    RETRYING(2),
    /** The primary refuses writes: read-only, every other client session ended. */
    DONE(3);

    private final int code;

    FenceState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** As /status and the logs write it: not needed, fencing, retrying, done. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** @throws LeaseFileException naming the code when it is none of ours */
    static FenceState of(int code) {
        for (FenceState state : values()) {
            if (state.code == code) {
                return state;
            }
        }
        throw new LeaseFileException("unknown fence state " + code);
    }
}
