package io.rdmarepl.shipper.encode;

/**
 * One published column of a table, as the primary's catalog describes it.
 *
 * @param name          the column name, exactly
 * @param typeOid       {@code pg_attribute.atttypid} (a domain's own OID for a domain column)
 * @param typeName      a name the applier can cast to with {@code ?::typeName} whatever its search_path:
 *                      the quoted {@code typname} for pg_catalog types ({@code int4}, {@code bpchar},
 *                      {@code "char"}, {@code timestamptz}; not {@code format_type}, whose {@code character}
 *                      means char(1) and would truncate), else {@code "schema"."name"} quoted as needed,
 *                      arrays as the element's name plus {@code []}; no typmod (see {@code typeModifier})
 * @param typeModifier  {@code atttypmod}, -1 if none
 * @param key           part of the replica identity (primary key, REPLICA IDENTITY USING INDEX, or FULL: all)
 * @param identity      {@code attidentity}: {@code 'a'} always, {@code 'd'} by default, {@code '\0'} none
 * @param kind          how values are written (from the base type, domains resolved)
 * @param elementKind   for arrays, the element's kind; {@code null} otherwise
 */
public record ColumnInfo(String name, int typeOid, String typeName, int typeModifier, boolean key, char identity,
                         ValueKind kind, ValueKind elementKind) {
}
