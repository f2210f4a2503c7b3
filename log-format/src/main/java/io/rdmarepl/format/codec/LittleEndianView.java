package io.rdmarepl.format.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A little-endian duplicate of a caller's buffer, made once per distinct buffer object: the wire is
 * little-endian whatever order the caller set, and a ring that always hands over the same buffer
 * costs no allocation per record.
 */
final class LittleEndianView {
    private ByteBuffer source;
    private ByteBuffer view;

    ByteBuffer of(ByteBuffer target) {
        if (target != source) {
            view = target.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            source = target;
        }
        return view;
    }
}
