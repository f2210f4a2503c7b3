package io.rdmarepl.shipper.capture.pgoutput;

import io.rdmarepl.format.Lsn;
import java.util.Collection;
import java.util.Map;

/**
 * Text of the replication commands this package builds, with PostgreSQL's quoting: identifiers in double quotes
 * (a double quote doubled), option values as string literals (a single quote doubled; the replication command
 * scanner takes no backslash escapes).
 */
public final class ReplicationCommands {
    /** Slot names are what {@code ReplicationSlotValidateName} accepts: lower-case letters, digits, underscores. */
    static final String SLOT_NAME_PATTERN = "[a-z0-9_]{1,63}";

    private ReplicationCommands() {
    }

    /**
     * {@code START_REPLICATION SLOT "slot" LOGICAL 16/B374D848 ("proto_version" '4', ...)}; the options in the
     * map's order, none when it is empty.
     */
    public static String startLogical(String slot, long startLsn, Map<String, String> pluginOptions) {
        StringBuilder command = new StringBuilder("START_REPLICATION SLOT ");
        command.append(quoteIdentifier(checkSlotName(slot))).append(" LOGICAL ");
        Lsn.appendTo(startLsn, command);
        if (!pluginOptions.isEmpty()) {
            command.append(" (");
            boolean first = true;
            for (Map.Entry<String, String> option : pluginOptions.entrySet()) {
                if (!first) {
                    command.append(", ");
                }
                first = false;
                command.append(quoteIdentifier(option.getKey())).append(' ').append(quoteLiteral(option.getValue()));
            }
            command.append(')');
        }
        return command.toString();
    }

    /** pgoutput's {@code publication_names} value: {@code "a","b"} (pgoutput splits it as an identifier list). */
    public static String publicationNames(Collection<String> publications) {
        if (publications.isEmpty()) {
            throw new IllegalArgumentException("at least one publication is needed");
        }
        StringBuilder names = new StringBuilder();
        for (String publication : publications) {
            if (names.length() > 0) {
                names.append(',');
            }
            names.append(quoteIdentifier(publication));
        }
        return names.toString();
    }

    public static String quoteIdentifier(String identifier) {
        if (identifier.isEmpty() || identifier.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a valid identifier: '" + identifier.replace('\0', '?') + "'");
        }
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    public static String quoteLiteral(String value) {
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a literal cannot hold a zero byte: " + value.replace('\0', '?'));
        }
        return '\'' + value.replace("'", "''") + '\'';
    }

    static String checkSlotName(String slot) {
        if (slot == null || !slot.matches(SLOT_NAME_PATTERN)) {
            throw new IllegalArgumentException("replication slot name '" + slot
                + "' must be 1 to 63 lower-case letters, digits or underscores");
        }
        return slot;
    }
}
