package io.rdmarepl.format.record;

/** One column of a {@link ChangeRecord.Relation}: name, type OID and name, typmod (-1 if none), key flag. */
public record Column(String name, int typeOid, String typeName, int typeModifier, boolean key) {
}
