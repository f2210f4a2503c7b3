package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.COLUMN_BINARY;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.COLUMN_NULL;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.COLUMN_TEXT;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.COLUMN_UNCHANGED_TOAST;

import io.rdmarepl.format.codec.RowChangeDescriptor;
import io.rdmarepl.format.codec.RowWriter;
import io.rdmarepl.format.codec.ValueDescriptor;
import io.rdmarepl.format.ValueTag;
import java.nio.ByteBuffer;

/**
 * One pgoutput TupleData into one log-format tuple, in two passes over the message: {@link #measure} checks every
 * column against the relation and the message's bounds and returns the encoded size, so the transaction buffer
 * grows once before anything is written; {@link #write} then writes the values. Text values are copied as bytes
 * (TEXT_FALLBACK with the column's type OID); int2, int4, int8 and bool are parsed into their native tags.
 */
final class TupleCodec {
    private static final int NULL_LENGTH = ValueDescriptor.fixedLength(ValueTag.NULL);
    private static final int UNCHANGED_LENGTH = ValueDescriptor.fixedLength(ValueTag.UNCHANGED_TOAST);

    private final DecodeContext context;
    private final TextValues text;

    TupleCodec(DecodeContext context) {
        this.context = context;
        this.text = new TextValues(context);
    }

    /**
     * Validates the TupleData at the reader's position and leaves the reader after it.
     *
     * @param tuple names the tuple in messages: {@code new tuple}, {@code old key}, {@code old row}
     * @return bytes of the log-format tuple, header included
     */
    long measure(MessageReader reader, RelationEntry relation, String tuple) {
        int columns = reader.readUnsignedShort("tuple column count");
        if (columns != relation.columnCount()) {
            throw context.fail("the " + tuple + " has " + columns + " columns, but the relation's last Relation message"
                + " described " + relation.columnCount());
        }
        long size = RowChangeDescriptor.TUPLE_HEADER_LENGTH;
        for (int i = 0; i < columns; i++) {
            context.column(i);
            byte kind = reader.readByte("column kind");
            switch (kind) {
                case COLUMN_NULL:
                    size += NULL_LENGTH;
                    break;
                case COLUMN_UNCHANGED_TOAST:
                    size += UNCHANGED_LENGTH;
                    break;
                case COLUMN_TEXT:
                    int length = reader.readInt("text value length");
                    reader.skip(length, "text value");
                    size += relation.kind(i).encodedLength(length);
                    break;
                case COLUMN_BINARY:
                    throw context.fail("a binary ('b') value in the " + tuple
                        + ", but binary output was not requested");
                default:
                    throw context.fail("unknown column kind byte " + byteText(kind) + " in the " + tuple
                        + " (expected 'n', 'u' or 't')");
            }
        }
        context.column(-1);
        return size;
    }

    /** Writes the TupleData at the reader's position, which {@link #measure} accepted, and leaves the reader after it. */
    void write(MessageReader reader, RelationEntry relation, RowWriter writer) {
        int columns = reader.readUnsignedShort("column count");
        ByteBuffer source = reader.buffer();
        for (int i = 0; i < columns; i++) {
            byte kind = reader.readByte("column kind");
            if (kind == COLUMN_NULL) {
                writer.putNull();
                continue;
            }
            if (kind == COLUMN_UNCHANGED_TOAST) {
                writer.putUnchangedToast();
                continue;
            }
            int length = reader.readInt("text value length");
            int at = reader.position();
            reader.position(at + length);
            context.column(i);
            switch (relation.kind(i)) {
                case INT2:
                    writer.putInt2((short) text.integer(source, at, length, Short.MIN_VALUE, Short.MAX_VALUE, "int2"));
                    break;
                case INT4:
                    writer.putInt4((int) text.integer(source, at, length, Integer.MIN_VALUE, Integer.MAX_VALUE, "int4"));
                    break;
                case INT8:
                    writer.putInt8(text.integer(source, at, length, Long.MIN_VALUE, Long.MAX_VALUE, "int8"));
                    break;
                case BOOL:
                    writer.putBool(text.bool(source, at, length));
                    break;
                default:
                    writer.putTextFallback(relation.typeOid(i), source, at, length);
            }
        }
        context.column(-1);
    }

    static String byteText(byte b) {
        int unsigned = b & 0xFF;
        return String.format("0x%02X", unsigned) + (unsigned >= 0x20 && unsigned < 0x7F ? " ('" + (char) unsigned + "')" : "");
    }
}
