package io.rdmarepl.testsupport.compare;

import java.util.List;
import java.util.regex.Pattern;

/** SQL identifiers: always quoted in statements, quoted only where needed in what people read. */
final class Identifiers {
    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_$]*");

    private Identifiers() {
    }

    /** @return {@code "name"}, inner quotes doubled: for statements */
    static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** @return {@code "schema"."name"}: for statements */
    static String qualified(String schema, String name) {
        return quote(schema) + "." + quote(name);
    }

    /** @return {@code public.t}, or {@code "Odd"."T"}: quoted only where a plain name would not read back the same */
    static String display(String schema, String name) {
        return readable(schema) + "." + readable(name);
    }

    static String readable(String name) {
        return PLAIN.matcher(name).matches() ? name : quote(name);
    }

    /** @return {@code "a", "b"}: a list of quoted column names */
    static String columns(List<String> names) {
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(quote(name));
        }
        return out.toString();
    }
}
