package io.rdmarepl.channel;

import io.rdmarepl.channel.ring.RingDescriptor;

/**
 * What the reader side needs to create a ring.
 *
 * @param capacity      data area in bytes, a power of two
 * @param epoch         frames tagged with another epoch are refused
 * @param ringId        identifies this ring instance (a restarted standby makes a new one)
 * @param deleteOnClose remove the ring's backing file, if any, on close
 */
public record RingSettings(int capacity, int epoch, long ringId, boolean deleteOnClose) {
    public RingSettings {
        RingDescriptor.checkCapacity(capacity);
    }
}
