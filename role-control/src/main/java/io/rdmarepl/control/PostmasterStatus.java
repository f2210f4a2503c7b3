package io.rdmarepl.control;

/**
 * The primary's postmaster as its shipper watches it (from /proc, on the primary's host): part of the
 * {@link PrimaryAnswer}, and of the shipper's {@code /status} as {@code primary_postmaster}.
 *
 * @param pid    the watched process; null when none is watched
 * @param exited it exited
 * @param watch  {@code watching}, {@code exited: } and how, or {@code none: } and why none is watched
 * @param exit   how it exited (e.g. {@code process 4711 exited (state Z)}); null while it runs or none is watched
 */
public record PostmasterStatus(Long pid, boolean exited, String watch, String exit) {
    /** The {@link #watch} of an exited postmaster starts with this; older shippers said nothing else of the exit. */
    public static final String EXITED_PREFIX = "exited: ";
}
