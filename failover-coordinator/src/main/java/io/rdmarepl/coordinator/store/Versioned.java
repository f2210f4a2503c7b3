package io.rdmarepl.coordinator.store;

/**
 * A value read from the state store with the version a compare-and-set must name.
 *
 * @param value   null when nothing was ever stored
 * @param version {@link StateStore#NOTHING_STORED} when nothing was ever stored
 */
public record Versioned<T>(T value, long version) {
}
