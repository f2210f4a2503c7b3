package io.rdmarepl.shipper;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.format.record.ChangeRecord;
import java.util.ArrayList;
import java.util.List;

/** What a stand-in standby received, split into transactions (Begin ... Commit), for the pipeline tests. */
final class ShippedTransactions {
    private ShippedTransactions() {
    }

    /** The sequence states shipped for {@code schema.name}, in stream order. */
    static List<ChangeRecord.Sequence> sequences(List<ChangeRecord> records, String schema, String name) {
        return records.stream().filter(r -> r instanceof ChangeRecord.Sequence s && s.schema().equals(schema)
                && s.name().equals(name)).map(r -> (ChangeRecord.Sequence) r).toList();
    }

    static long commits(List<ChangeRecord> records) {
        return records.stream().filter(r -> r instanceof ChangeRecord.Commit).count();
    }

    /** Every transaction, Begin to Commit, with its Relations; checks heartbeats and sequence states only ever fall between them. */
    static List<List<ChangeRecord>> of(List<ChangeRecord> records) {
        List<List<ChangeRecord>> transactions = new ArrayList<>();
        List<ChangeRecord> current = null;
        for (ChangeRecord r : records) {
            if (r instanceof ChangeRecord.Heartbeat || r instanceof ChangeRecord.Sequence) {
                assertThat(current).as("%s inside a transaction", r).isNull();
                continue;
            }
            if (r instanceof ChangeRecord.Begin) {
                assertThat(current).as("Begin inside a transaction").isNull();
                current = new ArrayList<>();
            }
            if (current == null && r instanceof ChangeRecord.Relation) {
                continue; // a Relation may precede its transaction's Begin
            }
            assertThat(current).as("%s outside a transaction", r).isNotNull();
            current.add(r);
            if (r instanceof ChangeRecord.Commit) {
                transactions.add(current);
                current = null;
            }
        }
        return transactions;
    }

    /** A value as text, whichever engine shipped it: Debezium's text, the native engine's integers and server text. */
    static String text(io.rdmarepl.format.record.Value value) {
        if (value instanceof io.rdmarepl.format.record.Value.Text t) {
            return t.value();
        }
        if (value instanceof io.rdmarepl.format.record.Value.Int4 i) {
            return Integer.toString(i.value());
        }
        if (value instanceof io.rdmarepl.format.record.Value.Int8 l) {
            return Long.toString(l.value());
        }
        return value instanceof io.rdmarepl.format.record.Value.TextFallback f ? f.text() : String.valueOf(value);
    }

    /** The rows of a CopyChunk, each its fields as text (null for NULL), unescaped from COPY's text format. */
    static List<List<String>> rows(ChangeRecord.CopyChunk chunk) {
        byte[] text = chunk.text();
        io.rdmarepl.format.codec.CopyTextRow row = new io.rdmarepl.format.codec.CopyTextRow();
        List<List<String>> rows = new ArrayList<>();
        for (int start = 0; start < text.length; ) {
            int end = start;
            while (text[end] != '\n') {
                end++;
            }
            row.parse(java.util.Arrays.copyOfRange(text, start, end), end - start);
            List<String> fields = new ArrayList<>();
            for (int f = 0; f < row.fields(); f++) {
                fields.add(row.isNull(f) ? null : new String(row.text(), row.start(f), row.end(f) - row.start(f),
                        java.nio.charset.StandardCharsets.UTF_8));
            }
            rows.add(fields);
            start = end + 1;
        }
        assertThat(rows).as("rows of %s", chunk).hasSize(chunk.rowCount());
        return rows;
    }
}
