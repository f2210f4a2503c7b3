package io.rdmarepl.distribution;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The repository's {@code Dockerfile} as instructions (continuation lines joined, comments dropped). */
final class Dockerfile {
    static final Path FILE = RepositoryFiles.ROOT.resolve("Dockerfile");

    /** One instruction: keyword in upper case and its arguments. */
    record Instruction(String keyword, String arguments) {
    }

    private final List<Instruction> instructions;

    private Dockerfile(List<Instruction> instructions) {
        this.instructions = instructions;
    }

    static Dockerfile load() {
        List<Instruction> out = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : RepositoryFiles.read(FILE).lines().toList()) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.length() == 0)) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            pending.append(trimmed);
            String text = pending.toString().strip();
            pending.setLength(0);
            if (!text.isEmpty()) {
                int space = text.indexOf(' ');
                out.add(new Instruction(text.substring(0, space).toUpperCase(Locale.ROOT), text.substring(space + 1).strip()));
            }
        }
        return new Dockerfile(out);
    }

    List<Instruction> instructions() {
        return instructions;
    }

    List<Instruction> all(String keyword) {
        return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }

    /** Stage names ({@code FROM image AS name}). */
    Set<String> stages() {
        Set<String> names = new LinkedHashSet<>();
        for (Instruction from : all("FROM")) {
            String[] words = from.arguments().split("\\s+");
            if (words.length == 3 && words[1].equalsIgnoreCase("AS")) {
                names.add(words[2]);
            }
        }
        return names;
    }
}
