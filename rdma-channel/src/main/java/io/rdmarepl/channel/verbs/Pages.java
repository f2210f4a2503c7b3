package io.rdmarepl.channel.verbs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Page-aligned direct memory for registration. */
final class Pages {
    static final int PAGE = 4096;

    private Pages() {
    }

    static ByteBuffer allocate(int length) {
        ByteBuffer raw = ByteBuffer.allocateDirect(((length + PAGE - 1) & -PAGE) + PAGE);
        return raw.alignedSlice(PAGE).slice(0, length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
