package io.rdmarepl.shipper.encode;

import static io.rdmarepl.shipper.encode.EncodedRecords.encodeAndDecode;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.OldTupleKind;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;


/**
 * Row shapes through a real Debezium engine: unchanged TOAST, key changes, REPLICA IDENTITY FULL and a relation whose
 * columns change.
 */
class EncodeRowShapesIT extends EncodeFixture {
    @Test
    void primaryKeyChangeCarriesTheOldKeyAndDeleteTheKey() throws Exception {
        server.execute("INSERT INTO enc.pk_t VALUES (1, 'a')");
        ChangeRecord.Insert insert = (ChangeRecord.Insert) encodeAndDecode(encoder, capture.nextOn("pk_t"));
        assertThat(insert.newTuple()).isEqualTo(Tuple.of(new Value.Int4(1), new Value.Text("a")));
        RelationInfo relation = encoder.relationOf(capture.all().stream()
            .filter(r -> SourceRecordKind.of(r) == SourceRecordKind.CHANGE).reduce((a, b) -> b).orElseThrow());
        assertThat(relation.columns()).extracting(ColumnInfo::name).containsExactly("id", "v"); // generated g not published

        server.execute("UPDATE enc.pk_t SET v = 'b' WHERE id = 1");
        ChangeRecord.Update plain = (ChangeRecord.Update) encodeAndDecode(encoder, capture.nextOn("pk_t"));
        assertThat(plain.oldTupleKind()).isEqualTo(OldTupleKind.NONE);

        server.execute("UPDATE enc.pk_t SET id = 10 WHERE id = 1");
        SourceRecord deleteHalf = capture.nextOn("pk_t");
        assertThat(((org.apache.kafka.connect.data.Struct) deleteHalf.value()).getString("op")).isEqualTo("d");
        assertThat(encodeAndDecode(encoder, deleteHalf)).isNull();
        ChangeRecord.Update update = (ChangeRecord.Update) encodeAndDecode(encoder, capture.nextOn("pk_t"));
        assertThat(update.oldTupleKind()).isEqualTo(OldTupleKind.KEY);
        assertThat(update.oldTuple()).isEqualTo(Tuple.of(new Value.Int4(1), Value.NULL));
        assertThat(update.newTuple()).isEqualTo(Tuple.of(new Value.Int4(10), new Value.Text("b")));

        server.execute("DELETE FROM enc.pk_t WHERE id = 10");
        ChangeRecord.Delete delete = (ChangeRecord.Delete) encodeAndDecode(encoder, capture.nextOn("pk_t"));
        assertThat(delete.oldTupleKind()).isEqualTo(OldTupleKind.KEY);
        assertThat(delete.oldTuple()).isEqualTo(Tuple.of(new Value.Int4(10), Value.NULL));

        server.execute("INSERT INTO enc.pk_t VALUES (5, 'x')");
        capture.nextOn("pk_t");
        server.execute("TRUNCATE enc.pk_t");
        SourceRecord truncate = capture.nextOn("pk_t");
        assertThat(SourceRecordKind.of(truncate)).isEqualTo(SourceRecordKind.CHANGE);
        ChangeRecord.Truncate t = (ChangeRecord.Truncate) encodeAndDecode(encoder, truncate);
        assertThat(t.relationIds()).containsExactly(tableOid("enc.pk_t"));

        List<SourceRecordKind> kinds = capture.all().stream().map(SourceRecordKind::of).toList();
        assertThat(kinds).contains(SourceRecordKind.TRANSACTION_BEGIN, SourceRecordKind.TRANSACTION_END,
            SourceRecordKind.CHANGE);
    }

    @Test
    void replicaIdentityFullCarriesTheWholeOldRow() throws Exception {
        server.execute("INSERT INTO enc.full_t VALUES (1, 'x')");
        SourceRecord inserted = capture.nextOn("full_t");
        ChangeRecord.Relation rel = EncodedRecords.relation(encoder.relationOf(inserted));
        assertThat(rel.replicaIdentity()).isEqualTo('f');
        assertThat(rel.columns()).allMatch(Column::key);
        encodeAndDecode(encoder, inserted);

        server.execute("UPDATE enc.full_t SET b = 'y'");
        ChangeRecord.Update update = (ChangeRecord.Update) encodeAndDecode(encoder, capture.nextOn("full_t"));
        assertThat(update.oldTupleKind()).isEqualTo(OldTupleKind.FULL);
        assertThat(update.oldTuple()).isEqualTo(Tuple.of(new Value.Int4(1), new Value.Text("x")));
        assertThat(update.newTuple()).isEqualTo(Tuple.of(new Value.Int4(1), new Value.Text("y")));

        server.execute("DELETE FROM enc.full_t");
        ChangeRecord.Delete delete = (ChangeRecord.Delete) encodeAndDecode(encoder, capture.nextOn("full_t"));
        assertThat(delete.oldTupleKind()).isEqualTo(OldTupleKind.FULL);
        assertThat(delete.oldTuple()).isEqualTo(Tuple.of(new Value.Int4(1), new Value.Text("y")));
    }

    @Test
    void addedColumnChangesTheRelationVersion() throws Exception {
        server.execute("INSERT INTO enc.alter_t VALUES (1, 1)");
        SourceRecord first = capture.nextOn("alter_t");
        RelationInfo before = encoder.relationOf(first);
        assertThat(before.columns()).extracting(ColumnInfo::name).containsExactly("id", "a");
        assertThat(encoder.relationOf(first)).isSameAs(before);

        server.execute("ALTER TABLE enc.alter_t ADD COLUMN b text; INSERT INTO enc.alter_t VALUES (2, 2, 'b')");
        SourceRecord second = capture.nextOn("alter_t");
        RelationInfo after = encoder.relationOf(second);
        assertThat(after.id()).isEqualTo(before.id());
        assertThat(after.version()).isGreaterThan(before.version());
        ChangeRecord.Relation rel = EncodedRecords.relation(after);
        assertThat(rel.columns()).extracting(Column::name).containsExactly("id", "a", "b");
        ChangeRecord.Insert insert = (ChangeRecord.Insert) encodeAndDecode(encoder, second);
        assertThat(insert.newTuple()).isEqualTo(Tuple.of(new Value.Int4(2), new Value.Int4(2), new Value.Text("b")));
        // an old event still encodes against the columns it carries
        assertThat(((ChangeRecord.Insert) encodeAndDecode(encoder, first)).newTuple())
            .isEqualTo(Tuple.of(new Value.Int4(1), new Value.Int4(1)));
    }
}
