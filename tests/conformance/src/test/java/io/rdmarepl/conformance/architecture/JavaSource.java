package io.rdmarepl.conformance.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Java source file as {@link SourceRule}s read it: its package and every type it names by a qualified name, in an
 * import (single, static or on demand) or in its code. Comments and string, character and text-block literals are
 * blanked first: a name in a Javadoc or a message is no reference. Naming is the only way Java source reaches a type
 * of another package, so this sees what the class files may not (an inlined constant).
 *
 * @param references qualified type names ({@code java.sql.Types}), and packages imported on demand ({@code java.sql.*})
 */
record JavaSource(Path file, String packageName, Set<String> references) {
    private static final Pattern PACKAGE = Pattern.compile("\\bpackage\\s+([\\w.]+)\\s*;");
    /**
     * Lower-case package segments, then a type: a qualified type name. A chain of variables ending in a constant has the
     * same shape ({@code this.config.MAX}), but names no package a rule forbids.
     */
    private static final Pattern QUALIFIED_TYPE = Pattern.compile("\\b((?:[a-z_][\\w$]*\\s*\\.\\s*)+)([A-Z][\\w$]*)");
    private static final Pattern ON_DEMAND = Pattern.compile("\\bimport\\s+([a-z_][\\w$]*(?:\\s*\\.\\s*[a-z_][\\w$]*)*)\\s*\\.\\s*\\*\\s*;");

    /** The package of a reference: {@code java.sql} for {@code java.sql.Types} and for {@code java.sql.*}. */
    static String packageOf(String reference) {
        return reference.substring(0, reference.lastIndexOf('.'));
    }

    /** The qualified name of the file's top-level type, e.g. {@code io.rdmarepl.format.Lsn}. */
    String typeName() {
        String simple = file.getFileName().toString().replaceFirst("\\.java$", "");
        return packageName.isEmpty() ? simple : packageName + "." + simple;
    }

    static JavaSource read(Path file) {
        String code;
        try {
            code = code(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher declared = PACKAGE.matcher(code);
        String packageName = declared.find() ? declared.group(1) : "";
        Set<String> references = new TreeSet<>();
        Matcher type = QUALIFIED_TYPE.matcher(code);
        while (type.find()) {
            references.add((type.group(1) + type.group(2)).replaceAll("\\s", ""));
        }
        Matcher onDemand = ON_DEMAND.matcher(code);
        while (onDemand.find()) {
            references.add(onDemand.group(1).replaceAll("\\s", "") + ".*");
        }
        references.removeIf(r -> packageOf(r).equals(packageName));
        return new JavaSource(file, packageName, references);
    }

    /** Every {@code .java} file under {@code roots}. */
    static List<JavaSource> readAll(List<Path> roots) {
        List<JavaSource> sources = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java")).sorted().map(JavaSource::read).forEach(sources::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sources;
    }

    /** {@code text} with comments and literals blanked (line breaks kept), so only code is left to read names from. */
    static String code(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int n = text.length();
        int i = 0;
        while (i < n) {
            int end;
            if (text.startsWith("//", i)) {
                end = text.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (text.startsWith("/*", i)) {
                end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (text.startsWith("\"\"\"", i)) {
                end = literalEnd(text, i + 3, "\"\"\"");
            } else if (text.charAt(i) == '"' || text.charAt(i) == '\'') {
                end = literalEnd(text, i + 1, String.valueOf(text.charAt(i)));
            } else {
                out.append(text.charAt(i++));
                continue;
            }
            for (; i < end; i++) {
                out.append(text.charAt(i) == '\n' ? '\n' : ' ');
            }
        }
        return out.toString();
    }

    private static int literalEnd(String text, int from, String close) {
        for (int j = from; j < text.length(); j++) {
            if (text.charAt(j) == '\\') {
                j++;
            } else if (text.startsWith(close, j)) {
                return j + close.length();
            }
        }
        return text.length();
    }
}
