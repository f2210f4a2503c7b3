package io.rdmarepl.shipper.lease;

import java.util.Locale;

/** Where the shipper's lease stands, as the shipper writes it into the lease file ({@link LeaseFileDescriptor}). */
public enum LeaseState {
    /** No lease counts: the file is new, or its shipper started afresh and has not counted yet. */
    NONE(0),
    /** The lease counts from the last contact: once that is longer ago than the lease, the guard fences the primary. */
    ARMED(1),
    /** The shipper stopped cleanly (SIGTERM, retired, activated anew): no lease counts, nothing is fenced. */
    RELEASED(2);

    private final int code;

    LeaseState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** As /status and the logs write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws LeaseFileException naming the code when it is none of ours */
    static LeaseState of(int code) {
        for (LeaseState state : values()) {
            if (state.code == code) {
                return state;
            }
        }
        throw new LeaseFileException("unknown lease state " + code);
    }
}
