package io.rdmarepl.channel.idle;

/** What a polling loop does between polls, given how much work the last poll did. */
public interface IdleStrategy {
    /** Called after every poll; idles only when {@code workCount} is 0, and resets otherwise. */
    void idle(int workCount);

    /** Forget accumulated back-off, e.g. after the loop was woken. */
    void reset();
}
