package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.begin;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.commit;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.insert;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.message;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.relation;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.streamAbort;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.streamCommit;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.streamStart;
import static io.rdmarepl.shipper.capture.pgoutput.PgOutputMessages.streamStop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.format.CatchUpMarkers;
import io.rdmarepl.format.record.ChangeRecord;
import io.rdmarepl.format.record.Column;
import io.rdmarepl.format.record.Tuple;
import io.rdmarepl.format.record.Value;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decoder on hand-made pgoutput messages: malformed input fails with one clear message (LSN, relation,
 * column, what was unexpected), and the cases a real server produces only with effort (interleaved subtransactions,
 * relation descriptions taken back with a subtransaction) come out right.
 */
class PgOutputDecoderTest {
    private static final int ORDERS = 16_400;
    private static final int ITEMS = 16_401;
    private static final long LSN = 0x1_6B37_4800L;
    private static final Map<Integer, String> BUILT_IN = Map.of(23, "int4", 20, "int8", 25, "text", 16, "bool",
        21, "int2", 1186, "interval");

    private final CollectingSink sink = new CollectingSink();
    private final PgOutputDecoder decoder = new PgOutputDecoder(BUILT_IN::get, sink, 1 << 20);
    private final ByteBuffer payload = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private long lsn = LSN;

    @Test
    void shouldFailNamingLsnRelationAndColumnWhenAnInsertIsTruncated() {
        feed(begin(0x2000_0000L, 1, 700));
        feed(ordersRelation(null));
        byte[] whole = insert(null, ORDERS, "1", "widget", "3");
        byte[] cut = Arrays.copyOf(whole, whole.length - 1);

        assertThatThrownBy(() -> feed(cut, 0x1_0000_00A8L))
            .isInstanceOf(PgOutputException.class)
            .hasMessage("pgoutput Insert at LSN 1/A8, relation shop.orders, column qty (int4): truncated: text value"
                + " needs 1 bytes, 0 remain of the " + cut.length + "-byte message")
            .satisfies(e -> {
                PgOutputException failure = (PgOutputException) e;
                assertThat(failure.lsn()).isEqualTo(0x1_0000_00A8L);
                assertThat(failure.relation()).isEqualTo("shop.orders");
                assertThat(failure.column()).isEqualTo("qty (int4)");
            });
    }

    @Test
    void shouldFailNamingTheOidWhenAChangeNamesARelationNeverDescribed() {
        feed(begin(0x2000_0000L, 1, 700));

        assertThatThrownBy(() -> feed(insert(null, 99_999, "1"), 0x2_0000_0010L))
            .isInstanceOf(PgOutputException.class)
            .hasMessage("pgoutput Insert at LSN 2/10, relation OID 99999: no Relation message described this"
                + " relation before the change");
    }

    @Test
    void shouldFailNamingTheRelationWhenATupleHasAnotherColumnCount() {
        feed(begin(0x2000_0000L, 1, 700));
        feed(ordersRelation(null));

        assertThatThrownBy(() -> feed(insert(null, ORDERS, "1", "widget"), 0x2_0000_0020L))
            .isInstanceOf(PgOutputException.class)
            .hasMessage("pgoutput Insert at LSN 2/20, relation shop.orders: the new tuple has 2 columns, but the"
                + " relation's last Relation message described 3");
    }

    @Test
    void shouldFailOnAnUnknownMessageType() {
        assertThatThrownBy(() -> feed(PgOutputMessages.of('z').i32(5).bytes(), 0x3_0000_0000L))
            .isInstanceOf(PgOutputException.class)
            .hasMessage("pgoutput message at LSN 3/0: unknown message type byte 0x7A ('z')");
        assertThatThrownBy(() -> feed(new byte[0], 0x3_0000_0008L))
            .hasMessage("pgoutput message at LSN 3/8: truncated: message type needs 1 bytes, 0 remain of the"
                + " 0-byte message");
    }

    @Test
    void shouldFailOnTwoPhaseMessagesWhichAreNeverRequested() {
        assertThatThrownBy(() -> feed(PgOutputMessages.of('P').i8(0).bytes(), 0x3_0000_0010L))
            .hasMessage("pgoutput Prepare at LSN 3/10: a two-phase message, sent only when two_phase is requested,"
                + " which this decoder never does");
    }

    @Test
    void shouldFailNamingTheColumnWhenAnIntegerValueIsNotAnInteger() {
        feed(begin(0x2000_0000L, 1, 700));
        feed(ordersRelation(null));

        assertThatThrownBy(() -> feed(insert(null, ORDERS, "1", "widget", "12x"), 0x4_0000_0000L))
            .hasMessage("pgoutput Insert at LSN 4/0, relation shop.orders, column qty (int4): text '12x' is not an int4");
        assertThatThrownBy(() -> feed(insert(null, ORDERS, "2147483648", "widget", "1"), 0x4_0000_0010L))
            .hasMessage("pgoutput Insert at LSN 4/10, relation shop.orders, column id (int4): text '2147483648' is"
                + " not an int4");
    }

    @Test
    void shouldFailOnBinaryValuesAndUnknownColumnKinds() {
        feed(begin(0x2000_0000L, 1, 700));
        feed(ordersRelation(null));
        byte[] binary = PgOutputMessages.of('I').i32(ORDERS).i8('N').i16(3).i8('b').i32(4).i32(1).i8('n').i8('n').bytes();
        byte[] unknown = PgOutputMessages.of('I').i32(ORDERS).i8('N').i16(3).i8('n').i8('x').i8('n').bytes();

        assertThatThrownBy(() -> feed(binary, 0x5_0000_0000L))
            .hasMessage("pgoutput Insert at LSN 5/0, relation shop.orders, column id (int4): a binary ('b') value in"
                + " the new tuple, but binary output was not requested");
        assertThatThrownBy(() -> feed(unknown, 0x5_0000_0010L))
            .hasMessage("pgoutput Insert at LSN 5/10, relation shop.orders, column item (text): unknown column kind"
                + " byte 0x78 ('x') in the new tuple (expected 'n', 'u' or 't')");
    }

    @Test
    void shouldFailOnBytesAfterTheLastFieldAndOnChangesOutsideATransaction() {
        byte[] padded = Arrays.copyOf(begin(0x2000_0000L, 1, 700), 23);
        assertThatThrownBy(() -> feed(padded, 0x6_0000_0000L))
            .hasMessage("pgoutput Begin at LSN 6/0: 2 unexpected bytes after the last field of the 23-byte message");

        decoder.reset();
        feed(ordersRelation(null));
        assertThatThrownBy(() -> feed(insert(null, ORDERS, "1", "w", "1"), 0x6_0000_0010L))
            .hasMessage("pgoutput Insert at LSN 6/10: a transactional change outside a transaction (no Begin or Stream"
                + " Start before it)");
    }

    @Test
    void shouldFailOnALaterSegmentOfAStreamedTransactionNeverStarted() {
        assertThatThrownBy(() -> feed(streamStart(900, false), 0x7_0000_0000L))
            .hasMessage("pgoutput Stream Start at LSN 7/0: a later segment of transaction 900, whose first segment"
                + " this decoder never received");
    }

    @Test
    void shouldReadStreamAbortsWithAndWithoutTheParallelFieldsAndRefuseOtherLengths() {
        feed(streamStart(950, true));
        feed(ordersRelation(950));
        feed(insert(950, ORDERS, "1", "never", "1"));
        feed(streamStop());
        feed(PgOutputMessages.of('A').i32(950).i32(950).i64(0x9000).i64(77).bytes()); // proto 4, streaming 'parallel'

        assertThat(decoder.streamedTransactionsInProgress()).isZero();
        assertThat(sink.shipped).isEmpty();
        assertThatThrownBy(() -> feed(PgOutputMessages.of('A').i32(950).i32(950).i32(0).bytes(), 0x9_0000_0000L))
            .hasMessage("pgoutput Stream Abort at LSN 9/0: a Stream Abort has 9 or 25 bytes, this one 13");
    }

    @Test
    void shouldFailNamingTheLimitWhenATransactionOutgrowsIt() {
        PgOutputDecoder small = new PgOutputDecoder(BUILT_IN::get, sink, 4096);
        feedTo(small, begin(0x2000_0000L, 1, 701), lsn);
        feedTo(small, ordersRelation(null), lsn);
        String item = "x".repeat(1000);

        assertThatThrownBy(() -> {
            for (int i = 0; i < 10; i++) {
                feedTo(small, insert(null, ORDERS, String.valueOf(i), item, "1"), 0x8_0000_0000L + i);
            }
        }).isInstanceOf(PgOutputException.class)
            .hasMessageStartingWith("pgoutput Insert at LSN 8/3, relation shop.orders: transaction 701 does not fit"
                + " the limit of 4096 bytes of encoded records");
    }

    @Test
    void shouldShipRowsWithNativeIntegersAndTextFallbacksAndTheRelationOnlyUntilTheStreamHasIt() {
        feed(begin(0x2000_0000L, 1_000_000, 700));
        feed(ordersRelation(null));
        feed(insert(null, ORDERS, "-2147483648", "caf\u00e9", null));
        feed(commit(0x2000_0000L, 0x2000_0040L, 1_000_000));
        feed(begin(0x2000_1000L, 2_000_000, 701));
        feed(ordersRelation(null)); // pgoutput sends it again after any invalidation: same description
        feed(insert(null, ORDERS, "7", "tea", "2"));
        feed(commit(0x2000_1000L, 0x2000_1040L, 2_000_000));

        assertThat(sink.shipped).hasSize(2);
        CollectingSink.Shipped first = sink.shipped.get(0);
        assertThat(first.records().get(0)).isEqualTo(new ChangeRecord.Begin(700, 0x2000_0000L,
            1_000_000 + PgOutputDescriptor.POSTGRES_EPOCH_OFFSET_US));
        assertThat(first.records().get(3)).isEqualTo(new ChangeRecord.Commit(700, 0x2000_0000L, 0x2000_0040L,
            1_000_000 + PgOutputDescriptor.POSTGRES_EPOCH_OFFSET_US));
        assertThat(first.body().get(0)).isEqualTo(new ChangeRecord.Relation(ORDERS, "shop", "orders", 'd', List.of(
            new Column("id", 23, "int4", -1, true), new Column("item", 25, "text", -1, false),
            new Column("qty", 23, "int4", -1, false))));
        assertThat(first.body().get(1)).isEqualTo(new ChangeRecord.Insert(ORDERS, new Tuple(List.of(
            new Value.Int4(Integer.MIN_VALUE), new Value.TextFallback(25, "caf\u00e9"), Value.NULL))));
        assertThat(sink.shipped.get(1).body()).as("no second Relation record").containsExactly(
            new ChangeRecord.Insert(ORDERS, new Tuple(List.of(new Value.Int4(7), new Value.TextFallback(25, "tea"),
                new Value.Int4(2)))));

        feed(begin(0x2000_2000L, 3_000_000, 702));
        feed(relation(null, ORDERS, "shop", "orders", 'd', "id", 23, true, "item", 25, false, "qty", 20, false));
        feed(insert(null, ORDERS, "8", "jam", "9223372036854775807"));
        feed(commit(0x2000_2000L, 0x2000_2040L, 3_000_000));
        assertThat(sink.shipped.get(2).body()).as("the changed description goes first").hasSize(2);
        assertThat(((ChangeRecord.Relation) sink.shipped.get(2).body().get(0)).columns().get(2))
            .isEqualTo(new Column("qty", 20, "int8", -1, false));
        assertThat(((ChangeRecord.Insert) sink.shipped.get(2).body().get(1)).newTuple().values().get(2))
            .isEqualTo(new Value.Int8(Long.MAX_VALUE));
    }

    @Test
    void shouldTakeOutExactlyAnAbortedSubtransactionsChangesAndTheRelationRecordsItBroughtIn() {
        int top = 800;
        int keep = 801;
        int abort = 802;
        feed(streamStart(top, true));
        feed(ordersRelation(top));
        feed(insert(top, ORDERS, "1", "top", "1"));
        feed(itemsRelation(abort));
        feed(insert(abort, ITEMS, "10"));
        feed(message(abort, true, CatchUpMarkers.PREFIX, "written by the subtransaction"));
        feed(insert(keep, ORDERS, "2", "kept", "1"));
        feed(message(top, true, CatchUpMarkers.PREFIX, "inside the subtransaction, tagged as pgoutput does"));
        feed(insert(abort, ORDERS, "3", "gone", "1"));
        feed(streamStop());
        feed(streamAbort(top, abort));
        feed(streamStart(top, false));
        feed(insert(top, ITEMS, "11"));
        feed(streamStop());
        feed(streamCommit(top, 0x3000_0000L, 0x3000_0040L, 5));

        assertThat(sink.shipped).hasSize(1);
        CollectingSink.Shipped txn = sink.shipped.get(0);
        assertThat(txn.marker()).as("the marker went with its subtransaction").isFalse();
        assertThat(txn.body()).extracting(r -> r.kind().displayName() + (r instanceof ChangeRecord.Insert i
            ? " " + i.newTuple().values().get(0) : r instanceof ChangeRecord.Relation rel ? " " + rel.table() : ""))
            .containsExactly("Relation orders", "Insert Int4[value=1]", "Insert Int4[value=2]", "Relation items",
                "Insert Int4[value=11]");
        assertThat(decoder.streamedTransactionsInProgress()).isZero();
    }

    @Test
    void shouldShipAMarkerOnlyTransactionAndNeverAnAbortedOne() {
        feed(begin(0x4000_0000L, 9, 900));
        feed(message(null, true, "someone.else", "ignored"));
        feed(message(null, true, CatchUpMarkers.PREFIX, "caught up?"));
        feed(commit(0x4000_0000L, 0x4000_0030L, 9));
        feed(begin(0x4000_1000L, 9, 901));
        feed(message(null, true, "someone.else", "ignored"));
        feed(commit(0x4000_1000L, 0x4000_1030L, 9));
        feed(message(null, false, CatchUpMarkers.PREFIX, "not transactional"));
        feed(streamStart(902, true));
        feed(ordersRelation(902));
        feed(insert(902, ORDERS, "1", "never", "1"));
        feed(message(902, true, CatchUpMarkers.PREFIX, "rolled back"));
        feed(streamStop());
        feed(streamAbort(902, 902));

        assertThat(sink.shipped).hasSize(1);
        assertThat(sink.shipped.get(0).marker()).isTrue();
        assertThat(sink.shipped.get(0).records()).hasSize(2);
        assertThat(sink.shipped.get(0).txId()).isEqualTo(900);
        assertThat(sink.empty).containsExactly(new CollectingSink.Empty(901, 0x4000_1000L, 0x4000_1030L));
        assertThat(decoder.streamedTransactionsInProgress()).isZero();
    }

    @Test
    void shouldDecodeRowsWithoutAllocating() {
        byte[] relation = ordersRelation(null);
        byte[][] rows = new byte[16][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = insert(null, ORDERS, String.valueOf(i * 1000), "a somewhat longer item name #" + i, "-" + i);
        }
        ByteBuffer direct = ByteBuffer.allocateDirect(1 << 12);
        long[] checksum = {0};
        byte[] beginMessage = begin(0x5000_0000L, 1, 42);
        byte[] commitMessage = commit(0x5000_0000L, 0x5000_0040L, 1);
        PgOutputDecoder counting = new PgOutputDecoder(BUILT_IN::get,
            (records, length, count, txId, commitLsn, endLsn, time, marker) -> checksum[0] += length + count, 1 << 20);
        Runnable transaction = () -> {
            put(direct, beginMessage);
            counting.decode(direct, 0, beginMessage.length, 0x5000_0000L, 0x5000_0000L);
            for (byte[] row : rows) {
                put(direct, row);
                counting.decode(direct, 0, row.length, 0x5000_0000L, 0x5000_0000L);
            }
            put(direct, commitMessage);
            counting.decode(direct, 0, commitMessage.length, 0x5000_0000L, 0x5000_0000L);
        };
        put(direct, begin(0x5000_0000L, 1, 41));
        counting.decode(direct, 0, 21, 0x5000_0000L, 0x5000_0000L);
        put(direct, relation);
        counting.decode(direct, 0, relation.length, 0x5000_0000L, 0x5000_0000L);
        put(direct, commit(0x5000_0000L, 0x5000_0040L, 1));
        counting.decode(direct, 0, 26, 0x5000_0000L, 0x5000_0000L);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) {
            transaction.run();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20_000; i++) {
            transaction.run();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(checksum[0]).isPositive();
        assertThat(allocated / (20_000.0 * rows.length)).as("bytes allocated per row (total %d)", allocated)
            .isLessThan(1.0);
    }

    private static void put(ByteBuffer direct, byte[] message) {
        direct.put(0, message);
    }

    private static byte[] ordersRelation(Integer xid) {
        return relation(xid, ORDERS, "shop", "orders", 'd', "id", 23, true, "item", 25, false, "qty", 23, false);
    }

    private static byte[] itemsRelation(Integer xid) {
        return relation(xid, ITEMS, "shop", "items", 'd', "id", 23, true);
    }

    private void feed(byte[] message) {
        feed(message, lsn += 0x40);
    }

    /** Puts the message at offset 7 of a little-endian direct buffer whose other bytes are garbage. */
    private void feed(byte[] message, long walStart) {
        feedTo(decoder, message, walStart);
    }

    private void feedTo(PgOutputDecoder target, byte[] message, long walStart) {
        for (int i = 0; i < payload.capacity(); i++) {
            payload.put(i, (byte) 0x5A);
        }
        payload.put(7, message);
        target.decode(payload, 7, message.length, walStart, walStart + message.length);
    }
}
