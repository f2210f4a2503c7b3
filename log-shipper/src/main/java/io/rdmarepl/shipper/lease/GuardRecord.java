package io.rdmarepl.shipper.lease;

/**
 * The lease guard's record in the lease file: that it watches, what it saw, and what it did about the primary.
 *
 * @param pid              the guard's process
 * @param checkedNs        {@link System#nanoTime()} of its last look at the lease
 * @param watchedState     the lease state it last read
 * @param watchedLeaseNs   the lease it last read
 * @param watchedContactNs the last contact it last read
 * @param fence            what it did about the primary
 * @param lapsedContactNs  the last contact whose lapse it fenced or is fencing; 0 when none
 * @param fenceStartedNs   when it began to fence; 0 when it did not
 * @param fenceDoneNs      when the primary refused writes; 0 when not done
 * @param attempts         fence attempts made for that lapse
 * @param lastError        why the last attempt failed; empty when none did
 */
public record GuardRecord(long pid, long checkedNs, LeaseState watchedState, long watchedLeaseNs, long watchedContactNs,
                          FenceState fence, long lapsedContactNs, long fenceStartedNs, long fenceDoneNs, int attempts,
                          String lastError) {
    /** A file no guard wrote to yet. */
    public static final GuardRecord EMPTY = new GuardRecord(0, 0, LeaseState.NONE, 0, 0, FenceState.NOT_NEEDED, 0, 0, 0, 0, "");

    /** The guard fenced the lapse of exactly this last contact. */
    public boolean fenced(long contactNs) {
        return fence == FenceState.DONE && lapsedContactNs == contactNs;
    }

    /** The guard looked at the lease less than {@code maxAgeNs} before {@code nowNs}. */
    public boolean checkedWithin(long nowNs, long maxAgeNs) {
        return pid != 0 && nowNs - checkedNs < maxAgeNs;
    }
}
