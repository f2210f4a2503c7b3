package io.rdmarepl.shipper.capture.pgoutput;

import static io.rdmarepl.shipper.capture.pgoutput.PgOutputDescriptor.REPLICA_IDENTITY_KEY_FLAG;

import io.rdmarepl.format.RecordCapacityException;
import io.rdmarepl.format.codec.RecordEncoder;
import io.rdmarepl.format.codec.RelationWriter;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Relation and Type messages (layouts in {@link PgOutputDescriptor}) into the relation cache. Control path: these
 * come before a relation's first change on a connection and again after its description may have changed, so
 * Strings and arrays are allocated freely here. The reader is positioned after the type byte and the optional xid.
 *
 * <p>A column's type name comes from the Type message pgoutput sent for its type (every type that is not built in;
 * for a domain PostgreSQL names its base type), else from {@link TypeNames}, whose answers for built-in types are
 * kept (they cannot change).
 */
final class RelationDecoder {
    /** PostgreSQL's FirstGenbkiObjectId: pgoutput sends a Type message for every type OID from here up. */
    private static final int FIRST_GENBKI_OBJECT_ID = 10_000;

    private final DecodeContext context;
    private final MessageReader reader;
    private final RelationMap relations;
    private final TypeNames typeNames;
    private final Map<Integer, String> builtInNames = new HashMap<>();
    private final Map<Integer, String> announcedNames = new HashMap<>();
    private final Map<Integer, ColumnKind> announcedKinds = new HashMap<>();
    private final RecordEncoder encoder = new RecordEncoder();
    private ByteBuffer scratch = ByteBuffer.allocate(4096);

    RelationDecoder(DecodeContext context, MessageReader reader, RelationMap relations, TypeNames typeNames) {
        this.context = context;
        this.reader = reader;
        this.relations = relations;
        this.typeNames = typeNames;
    }

    void relation() {
        int oid = reader.readInt("relation OID");
        context.relationOid(oid);
        String namespace = namespace(reader.readJavaString("namespace"));
        String table = reader.readJavaString("relation name");
        context.relationName(namespace + "." + table);
        char identity = (char) (reader.readByte("replica identity") & 0xFF);
        if ("dnfi".indexOf(identity) < 0) {
            throw context.fail("unknown replica identity " + TupleCodec.byteText((byte) identity) + " (expected d, n, f or i)");
        }
        int columns = reader.readUnsignedShort("column count");
        String[] names = new String[columns];
        int[] typeOids = new int[columns];
        int[] typeModifiers = new int[columns];
        boolean[] keys = new boolean[columns];
        String[] columnTypes = new String[columns];
        ColumnKind[] kinds = new ColumnKind[columns];
        for (int i = 0; i < columns; i++) {
            context.column(i);
            int flags = reader.readByte("column flags") & 0xFF;
            names[i] = reader.readJavaString("column name");
            context.columnName(names[i]);
            if ((flags & ~REPLICA_IDENTITY_KEY_FLAG) != 0) {
                throw context.fail("unknown column flags " + TupleCodec.byteText((byte) flags));
            }
            keys[i] = (flags & REPLICA_IDENTITY_KEY_FLAG) != 0;
            typeOids[i] = reader.readInt("column type OID");
            typeModifiers[i] = reader.readInt("column type modifier");
            columnTypes[i] = typeName(typeOids[i]);
            kinds[i] = announcedKinds.getOrDefault(typeOids[i], ColumnKind.ofTypeOid(typeOids[i]));
        }
        context.column(-1);
        reader.expectEnd();
        byte[] record = encode(oid, namespace, table, identity, names, typeOids, columnTypes, typeModifiers, keys);
        relations.getOrCreate(oid).describe(namespace, table, names, typeOids, columnTypes, kinds, record);
    }

    void type() {
        int oid = reader.readInt("type OID");
        String namespace = reader.readJavaString("namespace");
        String name = reader.readJavaString("type name");
        reader.expectEnd();
        announcedNames.put(oid, qualifiedName(namespace, name));
        announcedKinds.put(oid, ColumnKind.ofBaseTypeName(namespace, name));
    }

    private String typeName(int oid) {
        String announced = announcedNames.get(oid);
        if (announced != null) {
            return announced;
        }
        boolean builtIn = Integer.compareUnsigned(oid, FIRST_GENBKI_OBJECT_ID) < 0;
        String name = builtIn ? builtInNames.get(oid) : null;
        if (name != null) {
            return name;
        }
        try {
            name = typeNames.typeName(oid);
        } catch (RuntimeException e) {
            throw context.fail("cannot name type OID " + Integer.toUnsignedLong(oid) + ": " + e.getMessage(), e);
        }
        if (name == null) {
            throw context.fail("no type has OID " + Integer.toUnsignedLong(oid) + " (the type name lookup found none)");
        }
        if (builtIn) {
            builtInNames.put(oid, name);
        }
        return name;
    }

    private byte[] encode(int oid, String namespace, String table, char identity, String[] names, int[] typeOids,
                          String[] typeNames, int[] typeModifiers, boolean[] keys) {
        while (true) {
            try {
                RelationWriter writer = encoder.startRelation(scratch, 0, scratch.capacity(), oid, namespace, table, identity);
                for (int i = 0; i < names.length; i++) {
                    writer.putColumn(names[i], typeOids[i], typeNames[i], typeModifiers[i], keys[i]);
                }
                int length = writer.finish();
                byte[] record = new byte[length];
                scratch.get(0, record);
                return record;
            } catch (RecordCapacityException e) {
                scratch = ByteBuffer.allocate(Math.max(2 * scratch.capacity(), scratch.capacity() + e.required()));
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw context.fail("cannot encode its Relation record: " + e.getMessage(), e);
            }
        }
    }

    /** pgoutput sends pg_catalog as the empty string. */
    private static String namespace(String sent) {
        return sent.isEmpty() ? "pg_catalog" : sent;
    }

    /** {@code name} for a pg_catalog type, else {@code schema.name}, each quoted when it needs it. */
    static String qualifiedName(String namespace, String name) {
        return namespace.isEmpty() || "pg_catalog".equals(namespace) ? quote(name) : quote(namespace) + "." + quote(name);
    }

    /**
     * An identifier as SQL reads it: unchanged when it is lower-case letters, digits, underscores and dollar signs not
     * starting with a digit or dollar, else in double quotes. (Unlike quote_ident, keywords are not quoted.)
     */
    static String quote(String identifier) {
        boolean plain = !identifier.isEmpty();
        for (int i = 0; i < identifier.length() && plain; i++) {
            char c = identifier.charAt(i);
            plain = c >= 'a' && c <= 'z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '$');
        }
        return plain ? identifier : '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
