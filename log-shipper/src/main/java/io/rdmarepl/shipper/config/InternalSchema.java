package io.rdmarepl.shipper.config;

/**
 * The schema rdmarepl keeps its own bookkeeping in: the applier writes {@code rdmarepl.applied_position} into the
 * database it applies into. A member that was a standby and is the primary now still has it, and it must never
 * travel: the shipper neither captures nor copies any table of this schema, and refuses to be told to.
 */
public final class InternalSchema {
    /** The schema's name (unquoted, so lower case in PostgreSQL's catalog). */
    public static final String NAME = "rdmarepl";

    private InternalSchema() {
    }

    /** Whether {@code schema}, as written in {@code publication.tables}, names this schema. */
    public static boolean is(String schema) {
        String unquoted = schema.startsWith("\"") && schema.endsWith("\"") && schema.length() > 1
                ? schema.substring(1, schema.length() - 1) : schema.toLowerCase(java.util.Locale.ROOT);
        return NAME.equals(unquoted);
    }
}
