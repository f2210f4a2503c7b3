package io.rdmarepl.testsupport.compare;

/**
 * One sequence's outcome.
 *
 * @param sequence     qualified, quoted where SQL needs it
 * @param primaryState {@code last_value=N, is_called=B} on the primary
 * @param replicaState the same on the replica; null when the sequence is missing there
 */
public record SequenceResult(String sequence, String primaryState, String replicaState) {
    public boolean equal() {
        return primaryState.equals(replicaState);
    }

    /** @return e.g. {@code sequence public.s: last_value=7, is_called=true on both, equal} */
    @Override
    public String toString() {
        if (replicaState == null) {
            return "sequence " + sequence + ": " + primaryState + " on the primary, sequence missing on the replica";
        }
        return "sequence " + sequence + ": " + (equal() ? primaryState + " on both, equal"
                : "primary " + primaryState + ", replica " + replicaState + ", DIFFERENT");
    }
}
