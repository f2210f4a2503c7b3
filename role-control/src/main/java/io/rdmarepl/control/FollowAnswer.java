package io.rdmarepl.control;

/**
 * An applier's answer to {@code POST /follow}.
 *
 * @param result {@value #FOLLOWING}
 */
public record FollowAnswer(String result) {
    public static final String FOLLOWING = "following";

    public static FollowAnswer following() {
        return new FollowAnswer(FOLLOWING);
    }
}
