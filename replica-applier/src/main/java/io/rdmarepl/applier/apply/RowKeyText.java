package io.rdmarepl.applier.apply;

import io.rdmarepl.applier.schema.SqlNames;
import io.rdmarepl.applier.schema.TableMapping;
import io.rdmarepl.format.codec.RecordDecoder;
import io.rdmarepl.format.codec.RecordHandler;
import io.rdmarepl.format.codec.RowChangeView;
import io.rdmarepl.format.codec.TupleView;
import java.nio.ByteBuffer;

/**
 * The key a row change finds its row by, as text for an error message: {@code ("id", "code")=(7, ab  )}, the way
 * PostgreSQL's own {@code Key (id)=(7)} details read. Only for reporting a divergence (control path): it decodes the
 * record again, at the offset the batch remembered, with a decoder of its own.
 */
final class RowKeyText {
    private static final int LONGEST_VALUE = 200;

    private RowKeyText() {
    }

    static String of(ByteBuffer log, int recordOffset, int end, TableMapping m, StatementShape shape) {
        StringBuilder out = new StringBuilder();
        new RecordDecoder().decode(log, recordOffset, end - recordOffset, new RecordHandler() {
            @Override
            public void onUpdate(RowChangeView update) {
                describe(shape.whereFromOld() ? update.oldTuple() : update.newTuple());
            }

            @Override
            public void onDelete(RowChangeView delete) {
                describe(delete.oldTuple());
            }

            private void describe(TupleView tuple) {
                int[] columns = shape.where();
                out.append('(');
                for (int k = 0; k < columns.length; k++) {
                    out.append(k == 0 ? "" : ", ").append(SqlNames.quote(m.columnName(columns[k])));
                }
                out.append(")=(");
                for (int k = 0; k < columns.length; k++) {
                    out.append(k == 0 ? "" : ", ");
                    out.append(PgText.forMessage(tuple, columns[k], LONGEST_VALUE));
                }
                out.append(')');
            }
        });
        return out.toString();
    }
}
