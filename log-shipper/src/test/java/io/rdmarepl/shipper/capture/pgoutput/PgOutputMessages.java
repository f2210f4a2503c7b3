package io.rdmarepl.shipper.capture.pgoutput;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Hand-made pgoutput messages for unit tests, laid out as {@link PgOutputDescriptor} documents them. */
final class PgOutputMessages {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    private PgOutputMessages(char type) {
        i8(type);
    }

    static PgOutputMessages of(char type) {
        return new PgOutputMessages(type);
    }

    static byte[] begin(long finalLsn, long postgresTimeUs, int xid) {
        return of('B').i64(finalLsn).i64(postgresTimeUs).i32(xid).bytes();
    }

    static byte[] commit(long commitLsn, long endLsn, long postgresTimeUs) {
        return of('C').i8(0).i64(commitLsn).i64(endLsn).i64(postgresTimeUs).bytes();
    }

    static byte[] streamStart(int xid, boolean first) {
        return of('S').i32(xid).i8(first ? 1 : 0).bytes();
    }

    static byte[] streamStop() {
        return of('E').bytes();
    }

    static byte[] streamCommit(int xid, long commitLsn, long endLsn, long postgresTimeUs) {
        return of('c').i32(xid).i8(0).i64(commitLsn).i64(endLsn).i64(postgresTimeUs).bytes();
    }

    static byte[] streamAbort(int xid, int subxid) {
        return of('A').i32(xid).i32(subxid).bytes();
    }

    /** A Relation message; {@code columns} as (name, type OID, key) triples; xid null outside a stream block. */
    static byte[] relation(Integer xid, int oid, String namespace, String table, char identity, Object... columns) {
        PgOutputMessages m = of('R').xid(xid).i32(oid).string(namespace).string(table).i8(identity).i16(columns.length / 3);
        for (int i = 0; i < columns.length; i += 3) {
            m.i8((Boolean) columns[i + 2] ? 1 : 0).string((String) columns[i]).i32((Integer) columns[i + 1]).i32(-1);
        }
        return m.bytes();
    }

    /** An Insert whose new tuple holds {@code values}: null for 'n', {@link #UNCHANGED} for 'u', else text. */
    static byte[] insert(Integer xid, int oid, String... values) {
        return of('I').xid(xid).i32(oid).i8('N').tuple(values).bytes();
    }

    static byte[] message(Integer xid, boolean transactional, String prefix, String content) {
        byte[] body = content.getBytes(StandardCharsets.UTF_8);
        return of('M').xid(xid).i8(transactional ? 1 : 0).i64(0x100).string(prefix).i32(body.length).raw(body).bytes();
    }

    /** Marks an unchanged TOAST column in {@link #tuple}. */
    static final String UNCHANGED = new String("\u0000unchanged");

    PgOutputMessages xid(Integer xid) {
        return xid == null ? this : i32(xid);
    }

    PgOutputMessages tuple(String... values) {
        i16(values.length);
        for (String value : values) {
            if (value == null) {
                i8('n');
            } else if (value == UNCHANGED) {
                i8('u');
            } else {
                byte[] text = value.getBytes(StandardCharsets.UTF_8);
                i8('t').i32(text.length).raw(text);
            }
        }
        return this;
    }

    PgOutputMessages i8(int v) {
        return write(() -> out.writeByte(v));
    }

    PgOutputMessages i16(int v) {
        return write(() -> out.writeShort(v));
    }

    PgOutputMessages i32(int v) {
        return write(() -> out.writeInt(v));
    }

    PgOutputMessages i64(long v) {
        return write(() -> out.writeLong(v));
    }

    PgOutputMessages string(String s) {
        return raw(s.getBytes(StandardCharsets.UTF_8)).i8(0);
    }

    PgOutputMessages raw(byte[] b) {
        return write(() -> out.write(b));
    }

    byte[] bytes() {
        return bytes.toByteArray();
    }

    private interface Io {
        void run() throws IOException;
    }

    private PgOutputMessages write(Io io) {
        try {
            io.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }
}
