package io.rdmarepl.applier.schema;

/**
 * A column of the replica's table, as its catalog says.
 *
 * @param castType       the type to cast bound values to, without any modifier ({@code numeric}, {@code bpchar},
 *                       {@code "bit"}, {@code integer[]}, {@code public.mood}): never {@code character}, which means {@code character(1)}
 * @param declaredType   the column's type as declared, modifier included ({@code character(5)}): for error messages
 * @param generated      a generated column: never written
 * @param identityAlways GENERATED ALWAYS AS IDENTITY: inserts need OVERRIDING SYSTEM VALUE
 * @param sequence       the sequence behind a serial or identity column (schema-qualified, quoted as needed), or null
 * @param primaryKey     part of the replica's primary key
 * @param typeOid        the column's type ({@code atttypid})
 */
public record ReplicaColumn(String name, String castType, String declaredType, boolean generated, boolean identity, boolean identityAlways,
                            String sequence, boolean primaryKey, int typeOid) {
}
