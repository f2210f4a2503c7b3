package io.rdmarepl.channel.fragment;

/**
 * Frame flags that cut a message larger than one frame into fragments: the first carries
 * {@link #BEGIN}, the last {@link #END}, a message that fits one frame carries both.
 */
public final class MessageFlags {
    public static final int BEGIN = 0x1;
    public static final int END = 0x2;
    public static final int UNFRAGMENTED = BEGIN | END;

    private MessageFlags() {
    }
}
