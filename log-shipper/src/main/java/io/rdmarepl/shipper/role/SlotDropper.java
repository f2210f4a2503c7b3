package io.rdmarepl.shipper.role;

/** Drops the shipper's replication slot on the primary. */
@FunctionalInterface
public interface SlotDropper {
    /**
     * @return whether there was a slot to drop
     * @throws IllegalStateException naming the slot or the database when it cannot be dropped
     */
    boolean dropIfExists();
}
