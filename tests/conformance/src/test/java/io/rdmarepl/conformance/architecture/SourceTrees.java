package io.rdmarepl.conformance.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Where the sources are: this checkout's root, found from the module's working directory. */
final class SourceTrees {
    private SourceTrees() {
    }

    /** Every module's {@code src/main/java}: what ships or runs, not the tests. */
    static List<Path> production() {
        Path root = root();
        try (Stream<Path> dirs = Files.walk(root, 5)) {
            return dirs.filter(d -> d.endsWith(Path.of("src", "main", "java")) && Files.isDirectory(d))
                    .filter(d -> !root.relativize(d).toString().contains("target") && !root.relativize(d).startsWith("."))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This module's test sources, where the planted classes are. */
    static Path conformanceTests() {
        return root().resolve("tests/conformance/src/test/java");
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("tests/conformance/pom.xml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no tests/conformance/pom.xml above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
