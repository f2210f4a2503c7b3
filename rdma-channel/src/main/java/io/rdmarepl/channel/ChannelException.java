package io.rdmarepl.channel;

/**
 * A channel can no longer carry frames: the peer disconnected, refused us, or a one-sided write
 * failed. The message names the URI and the cause; open a new end to reconnect.
 */
public class ChannelException extends RuntimeException {
    public ChannelException(String message) {
        super(message);
    }

    public ChannelException(String message, Throwable cause) {
        super(message, cause);
    }
}
