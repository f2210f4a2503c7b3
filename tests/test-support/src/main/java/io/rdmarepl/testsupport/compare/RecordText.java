package io.rdmarepl.testsupport.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form of a row, {@code ROW("a", "b", ...)::text}: each column through its type's output function (so a
 * char(5) keeps its padding and a bool reads t or f, unlike a cast to text), an empty field for SQL NULL, and a
 * field quoted when it is empty text or holds {@code " \ ( ) ,} or white space ({@code ""} and {@code \\} inside).
 * So NULL, '' and 'NULL' read {@code ()}, {@code ("")} and {@code (NULL)}.
 */
final class RecordText {
    private RecordText() {
    }

    /**
     * @param fields how many columns the row has (a row of one NULL and a row of no columns both read {@code ()})
     * @return the columns' texts, null for SQL NULL
     * @throws IllegalArgumentException if {@code text} is not a record of {@code fields} columns
     */
    static List<String> fields(String text, int fields) {
        List<String> values = new ArrayList<>(fields);
        if (text.length() < 2 || text.charAt(0) != '(' || text.charAt(text.length() - 1) != ')') {
            throw new IllegalArgumentException("not a record: " + text);
        }
        if (fields == 0) {
            return values;
        }
        int i = 1;
        int end = text.length() - 1;
        while (true) {
            if (i < end && text.charAt(i) == '"') {
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= end) {
                        throw new IllegalArgumentException("unterminated quoted field in record: " + text);
                    }
                    char c = text.charAt(i);
                    if (c == '"' && i + 1 < end && text.charAt(i + 1) == '"') {
                        value.append('"');
                        i += 2;
                    } else if (c == '"') {
                        i++;
                        break;
                    } else if (c == '\\' && i + 1 < end) {
                        value.append(text.charAt(i + 1));
                        i += 2;
                    } else {
                        value.append(c);
                        i++;
                    }
                }
                values.add(value.toString());
            } else {
                int start = i;
                while (i < end && text.charAt(i) != ',') {
                    i++;
                }
                values.add(i == start ? null : text.substring(start, i));
            }
            if (i == end) {
                break;
            }
            if (text.charAt(i) != ',') {
                throw new IllegalArgumentException("expected ',' at " + i + " in record: " + text);
            }
            i++;
        }
        if (values.size() != fields) {
            throw new IllegalArgumentException("record of " + values.size() + " fields, expected " + fields + ": " + text);
        }
        return values;
    }

    /**
     * The order of {@code COLLATE "C"} on a UTF-8 database: byte order of UTF-8, which is code point order (not
     * {@link String#compareTo}, which orders UTF-16 units and so puts U+10000 and above before U+E000..U+FFFF).
     */
    static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(a.codePointAt(i), b.codePointAt(i));
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
