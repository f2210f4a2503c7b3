package io.rdmarepl.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The documentation's table of a configuration's keys, made from their descriptors: key, default, values allowed,
 * meaning. A page holds it between two markers; {@link #drift} says where the page's copy differs from the
 * descriptors, {@link #updated} writes the current one in.
 */
public final class ConfigTable {
    static final String HEADER = "| key | default | values | meaning |\n|---|---|---|---|";

    private ConfigTable() {
    }

    /** The line before the table: {@code <!-- config-keys:shipper ... -->}. */
    public static String begin(ConfigKeys keys) {
        return "<!-- config-keys:" + keys.name() + " (generated from the key descriptors: edit those, then run this module's"
                + " tests with -Drdmarepl.docs.update=true) -->";
    }

    /** The line after the table. */
    public static String end(ConfigKeys keys) {
        return "<!-- /config-keys:" + keys.name() + " -->";
    }

    /** The table, header and one row per key, in the order of {@code keys}. */
    public static String markdown(ConfigKeys keys) {
        StringBuilder table = new StringBuilder(HEADER);
        for (ConfigKey<?> key : keys.keys()) {
            table.append('\n').append(row(key));
        }
        return table.toString();
    }

    static String row(ConfigKey<?> key) {
        String shownDefault = key.required() ? "required" : key.defaultText().isEmpty() ? "(empty)" : "`" + key.defaultText() + "`";
        String values = key.type().values() + (key.secret() ? "; secret: never printed" : "");
        return "| `" + key.name() + "` | " + shownDefault + " | " + cell(values) + " | " + cell(key.description()) + " |";
    }

    /**
     * @return every difference between the table in {@code page} and the descriptors, one sentence each naming the key;
     *         empty when the page is current
     */
    public static List<String> drift(String page, ConfigKeys keys) {
        List<String> lines = page.lines().toList();
        int begin = lines.indexOf(begin(keys));
        int end = lines.indexOf(end(keys));
        if (begin < 0 || end < begin) {
            return List.of("no table between the lines '" + begin(keys) + "' and '" + end(keys) + "'");
        }
        List<String> written = lines.subList(begin + 1, end);
        List<String> made = markdown(keys).lines().toList();
        if (written.equals(made)) {
            return List.of();
        }
        Map<String, String> writtenRows = rows(written);
        Map<String, String> madeRows = rows(made);
        List<String> drift = new ArrayList<>();
        madeRows.forEach((key, row) -> {
            String pageRow = writtenRows.get(key);
            if (pageRow == null) {
                drift.add(key + ": no row in the page (expected '" + row + "')");
            } else if (!pageRow.equals(row)) {
                drift.add(key + ": the page says '" + pageRow + "', the descriptors '" + row + "'");
            }
        });
        writtenRows.keySet().stream().filter(key -> !madeRows.containsKey(key))
                .forEach(key -> drift.add(key + ": a row for a key no descriptor has"));
        if (drift.isEmpty()) {
            drift.add("the table's header, order or spacing differs from '" + String.join("\\n", made) + "'");
        }
        return drift;
    }

    /** {@code page} with its table replaced by the current one. */
    public static String updated(String page, ConfigKeys keys) {
        List<String> lines = page.lines().toList();
        int begin = lines.indexOf(begin(keys));
        int end = lines.indexOf(end(keys));
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no table between the lines '" + begin(keys) + "' and '" + end(keys) + "'");
        }
        List<String> out = new ArrayList<>(lines.subList(0, begin + 1));
        out.addAll(markdown(keys).lines().toList());
        out.addAll(lines.subList(end, lines.size()));
        return String.join("\n", out) + "\n";
    }

    /**
     * Checks the table in the file {@code page}; with {@code update}, first writes the current table in.
     *
     * @return {@link #drift} of the file
     */
    public static List<String> verify(Path page, ConfigKeys keys, boolean update) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        if (update) {
            String current = updated(text, keys);
            if (!current.equals(text)) {
                Files.writeString(page, current, StandardCharsets.UTF_8);
            }
            text = current;
        }
        return drift(text, keys);
    }

    private static Map<String, String> rows(List<String> lines) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("| `")) {
                rows.put(line.substring(3, line.indexOf('`', 3)), line);
            }
        }
        return rows;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
