package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Columns aligned for a tired reader: a header row, two spaces between columns, "-" where there is no value. */
final class Table {
    private static final String GUTTER = "  ";
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... headers) {
        this.columns = headers.length;
        rows.add(headers);
    }

    Table row(String... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("a row needs " + columns + " cells, got " + cells.length);
        }
        rows.add(cells);
        return this;
    }

    /** A JSON value as a cell: text as is, numbers in full, "-" when missing or null. */
    static String cell(JsonNode value) {
        return value == null || value.isMissingNode() || value.isNull() || value.asText().isEmpty() ? "-" : value.asText();
    }

    void print(PrintWriter out) {
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row[c]);
                if (c < columns - 1) {
                    line.append(" ".repeat(widths[c] - row[c].length())).append(GUTTER);
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
