package io.rdmarepl.channel.fragment;

import java.nio.ByteBuffer;

/** Receives whole messages from a {@link MessageAssembler}. */
@FunctionalInterface
public interface MessageHandler {
    /** The bytes are valid only until this method returns. */
    void onMessage(int type, ByteBuffer buffer, int offset, int length);
}
