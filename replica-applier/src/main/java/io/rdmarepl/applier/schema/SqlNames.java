package io.rdmarepl.applier.schema;

/** Quotes identifiers: every name the applier writes into SQL goes through here, whatever its case or characters. */
public final class SqlNames {
    private SqlNames() {
    }

    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    public static String qualified(String schema, String name) {
        return quote(schema) + '.' + quote(name);
    }

    /** For messages: {@code "public"."orders"} reads unambiguously whatever the characters. */
    public static String describe(String schema, String name) {
        return qualified(schema, name);
    }
}
