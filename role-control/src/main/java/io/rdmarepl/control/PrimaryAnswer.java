package io.rdmarepl.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A shipper's answer to {@code GET /primary}: cheap (no SQL), read by the coordinator's long poll while it detects.
 * Without a running shipper only {@code {"shipping": false}}: nothing is known of the primary.
 *
 * @param shipping         a shipper runs on this member (fenced or not)
 * @param alive            the primary answers its liveness checks; null when no shipper runs
 * @param postmasterExited the watched postmaster exited (a fact read from /proc, not a missed answer); null when no
 *                         shipper runs
 * @param postmaster       the watch itself; null when no shipper runs or it does not say
 * @param fenced           the shipper role is fenced (by the coordinator, or by itself when its lease ran out): it ships
 *                         nothing until it is resumed ({@code POST /resume}) or activated; null from a shipper that
 *                         does not say, read as not fenced
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PrimaryAnswer(boolean shipping, Boolean alive, @JsonProperty("postmaster_exited") Boolean postmasterExited,
                            PostmasterStatus postmaster, Boolean fenced) {

    /** No shipper runs here. */
    public static PrimaryAnswer notShipping() {
        return new PrimaryAnswer(false, null, null, null, null);
    }

    /** What a running shipper sees of its primary. */
    public static PrimaryAnswer shipping(boolean alive, boolean postmasterExited, PostmasterStatus postmaster) {
        return new PrimaryAnswer(true, alive, postmasterExited, postmaster, null);
    }

    /** This answer, saying whether the shipper role is fenced. */
    public PrimaryAnswer withFenced(boolean isFenced) {
        return new PrimaryAnswer(shipping, alive, postmasterExited, postmaster, isFenced);
    }

    /** The shipper role said it is fenced. */
    public boolean reportsFenced() {
        return Boolean.TRUE.equals(fenced);
    }

    /** The shipper reported the postmaster's exit. */
    public boolean reportsExit() {
        return Boolean.TRUE.equals(postmasterExited);
    }

    /** The shipper watches a postmaster (false: the primary is on another host or behind a pooler, or no shipper runs). */
    public boolean watching() {
        return postmaster != null && postmaster.pid() != null;
    }

    /** How the postmaster exited; from a shipper that does not say, its {@code watch} without the prefix. */
    public String exit() {
        if (postmaster == null) {
            return "exited";
        }
        if (postmaster.exit() != null) {
            return postmaster.exit();
        }
        String watch = postmaster.watch() == null ? "exited" : postmaster.watch();
        return watch.startsWith(PostmasterStatus.EXITED_PREFIX) ? watch.substring(PostmasterStatus.EXITED_PREFIX.length()) : watch;
    }
}
