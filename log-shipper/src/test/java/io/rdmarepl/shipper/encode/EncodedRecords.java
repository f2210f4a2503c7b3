package io.rdmarepl.shipper.encode;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.ChangeRecords;
import java.nio.ByteBuffer;
import org.apache.kafka.connect.source.SourceRecord;

/** Test helper: encode with growing buffers (as the pipeline retries), decode back into a ChangeRecord. */
final class EncodedRecords {
    private EncodedRecords() {
    }

    static ChangeRecord encodeAndDecode(ChangeEventEncoder encoder, SourceRecord record) {
        int capacity = 64;
        while (true) {
            ByteBuffer buffer = ByteBuffer.allocate(capacity + 16);
            try {
                int length = encoder.encode(record, buffer, 16, capacity);
                if (length == 0) {
                    return null; // the Delete half of a primary-key change
                }
                return ChangeRecords.decode(new RecordDecoder(), buffer, 16, length);
            } catch (RecordCapacityException e) {
                capacity *= 4;
            }
        }
    }

    static ChangeRecord.Relation relation(RelationInfo relation) {
        ByteBuffer buffer = ByteBuffer.allocate(relation.encodedLength() + 8);
        int length = relation.encodeRelation(buffer, 8, relation.encodedLength());
        return (ChangeRecord.Relation) ChangeRecords.decode(new RecordDecoder(), buffer, 8, length);
    }
}
