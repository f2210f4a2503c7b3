package io.rdmarepl.shipper.capture.pgoutput;

/**
 * Relation OID to {@link RelationEntry}, open addressing with linear probing: a lookup per row change without
 * boxing the OID. Entries are never removed (a dropped table's entry is small and harmless).
 */
final class RelationMap {
    private int[] keys = new int[64];
    private RelationEntry[] values = new RelationEntry[64];
    private int size;

    RelationEntry get(int oid) {
        int mask = keys.length - 1;
        for (int i = hash(oid) & mask; ; i = i + 1 & mask) {
            RelationEntry entry = values[i];
            if (entry == null || keys[i] == oid) {
                return entry;
            }
        }
    }

    /** The entry of {@code oid}, created (with no description yet) if there is none. */
    RelationEntry getOrCreate(int oid) {
        RelationEntry entry = get(oid);
        if (entry == null) {
            if (2 * (size + 1) > keys.length) {
                resize();
            }
            entry = new RelationEntry(oid);
            insert(oid, entry);
            size++;
        }
        return entry;
    }

    private void insert(int oid, RelationEntry entry) {
        int mask = keys.length - 1;
        int i = hash(oid) & mask;
        while (values[i] != null) {
            i = i + 1 & mask;
        }
        keys[i] = oid;
        values[i] = entry;
    }

    private void resize() {
        int[] oldKeys = keys;
        RelationEntry[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new RelationEntry[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                insert(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int hash(int oid) {
        int h = oid * 0x9E3779B9;
        return h ^ h >>> 16;
    }
}
