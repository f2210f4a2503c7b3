package io.rdmarepl.format.codec;

import static io.rdmarepl.format.codec.RecordDescriptor.BODY_LENGTH_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.FLAGS_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.HEADER_LENGTH;
import static io.rdmarepl.format.codec.RecordDescriptor.KIND_OFFSET;
import static io.rdmarepl.format.codec.RecordDescriptor.VERSION;
import static io.rdmarepl.format.codec.RecordDescriptor.VERSION_OFFSET;

import io.rdmarepl.format.FormatException;
import io.rdmarepl.format.RecordKind;
import java.nio.ByteBuffer;

/**
 * Decodes one record from {@code (buffer, offset, length)} and hands it to a {@link RecordHandler} as
 * primitives or reusable flyweight views. A validation pass checks every length and count against the
 * bytes that remain before anything is read, allocated or looped over; after it, column access is O(1).
 * Little-endian whatever the buffer's order; absolute reads only. Nothing is allocated per record in
 * steady state (tables wider than any seen before grow the offset tables once). One instance per thread.
 *
 * <p>Any malformed input (unknown version or kind, truncation, corrupt length, tag or flag) throws
 * {@link FormatException} naming the record kind, its offset and the field, and nothing else.
 */
public final class RecordDecoder {
    private final LittleEndianView view = new LittleEndianView();
    private final ValueScanner scanner = new ValueScanner();
    private final RelationView relation = new RelationView();
    private final RowChangeView rowChange = new RowChangeView();
    private final TruncateView truncate = new TruncateView();
    private final SequenceView sequence = new SequenceView();
    private final CopyChunkView copyChunk = new CopyChunkView();

    /**
     * Decodes the record at {@code offset}, which must lie within {@code length} bytes, and calls the
     * matching handler method (after the whole record has been validated).
     *
     * @return bytes the record occupies ({@code HEADER_LENGTH + bodyLength}, at most {@code length}),
     *     so several records packed in one region can be walked
     * @throws FormatException if the bytes are not a valid record of a version this decoder reads
     * @throws IllegalArgumentException if {@code (offset, length)} does not lie inside the buffer (a caller bug)
     */
    public int decode(ByteBuffer buffer, int offset, int length, RecordHandler handler) {
        RecordDescriptor.checkRegion(buffer, offset, length, "length");
        ByteBuffer in = view.of(buffer);
        if (length < HEADER_LENGTH) {
            throw FormatErrors.truncated(null, offset, "header needs " + HEADER_LENGTH + " bytes, " + length + " remain");
        }
        int version = in.get(offset + VERSION_OFFSET) & 0xFF;
        if (version != VERSION) {
            throw new FormatException(null, offset, "unsupported record version " + version + " at offset " + offset
                + ": this decoder reads version " + VERSION);
        }
        int code = in.get(offset + KIND_OFFSET) & 0xFF;
        RecordKind kind = RecordKind.ofCode(code);
        if (kind == null) {
            throw FormatErrors.corrupt(null, offset, "unknown record kind " + code + (code > RecordKind.HIGHEST_CODE
                ? " (this decoder knows kinds 1-" + RecordKind.HIGHEST_CODE + "; a newer shipper wrote it: upgrade the applier)"
                : ""));
        }
        int flags = in.getShort(offset + FLAGS_OFFSET) & 0xFFFF;
        int bodyLength = in.getInt(offset + BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || bodyLength > length - HEADER_LENGTH) {
            FormatErrors.checkLength(kind, offset, offset + HEADER_LENGTH, offset + length, bodyLength, "body");
        }
        int end = offset + HEADER_LENGTH + bodyLength;
        switch (kind) {
            case BEGIN:
                fixed(kind, offset, bodyLength, flags & ~TransactionDescriptor.BEGIN_SNAPSHOT_CHUNK_FLAG,
                    TransactionDescriptor.BEGIN_LENGTH);
                handler.onBegin(in.getLong(offset + TransactionDescriptor.BEGIN_TX_ID_OFFSET),
                    in.getLong(offset + TransactionDescriptor.BEGIN_COMMIT_LSN_OFFSET),
                    in.getLong(offset + TransactionDescriptor.BEGIN_COMMIT_TIME_OFFSET), flags);
                break;
            case COMMIT:
                fixed(kind, offset, bodyLength, flags, TransactionDescriptor.COMMIT_LENGTH);
                handler.onCommit(in.getLong(offset + TransactionDescriptor.COMMIT_TX_ID_OFFSET),
                    in.getLong(offset + TransactionDescriptor.COMMIT_COMMIT_LSN_OFFSET),
                    in.getLong(offset + TransactionDescriptor.COMMIT_END_LSN_OFFSET),
                    in.getLong(offset + TransactionDescriptor.COMMIT_COMMIT_TIME_OFFSET));
                break;
            case HEARTBEAT:
                fixed(kind, offset, bodyLength, flags, TransactionDescriptor.HEARTBEAT_LENGTH);
                handler.onHeartbeat(in.getLong(offset + TransactionDescriptor.HEARTBEAT_TIME_OFFSET),
                    in.getLong(offset + TransactionDescriptor.HEARTBEAT_LAST_LSN_OFFSET));
                break;
            case RELATION:
                noFlags(kind, offset, flags);
                relation.wrap(in, offset, end);
                handler.onRelation(relation);
                break;
            case TRUNCATE:
                truncate.wrap(in, offset, bodyLength, flags);
                handler.onTruncate(truncate);
                break;
            case SEQUENCE:
                sequence.wrap(in, offset, bodyLength, flags);
                handler.onSequence(sequence);
                break;
            case COPY_CHUNK:
                copyChunk.wrap(in, offset, bodyLength, flags);
                handler.onCopyChunk(copyChunk);
                break;
            case INSERT:
                rowChange.wrap(in, offset, end, kind, flags, scanner);
                handler.onInsert(rowChange);
                break;
            case UPDATE:
                rowChange.wrap(in, offset, end, kind, flags, scanner);
                handler.onUpdate(rowChange);
                break;
            case DELETE:
                rowChange.wrap(in, offset, end, kind, flags, scanner);
                handler.onDelete(rowChange);
                break;
            default:
                throw new IllegalStateException("no decoder for " + kind);
        }
        return HEADER_LENGTH + bodyLength;
    }

    private static void fixed(RecordKind kind, int offset, int bodyLength, int flags, int recordLength) {
        noFlags(kind, offset, flags);
        if (bodyLength != recordLength - HEADER_LENGTH) {
            throw FormatErrors.corrupt(kind, offset, "body length " + bodyLength + " is not "
                + (recordLength - HEADER_LENGTH));
        }
    }

    private static void noFlags(RecordKind kind, int offset, int flags) {
        if (flags != 0) {
            throw FormatErrors.corrupt(kind, offset, "unknown flags " + flags);
        }
    }
}
