package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every relative link in the README and docs/ (its subdirectories too) points at a file that exists (web links are not followed here). */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Path ROOT = Path.of("..");

    @Test
    void shouldResolveEveryRelativeLink() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(documents::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path document : documents) {
            Matcher link = LINK.matcher(Files.readString(document));
            while (link.find()) {
                String target = link.group(1);
                if (target.contains("://") || target.startsWith("#") || target.startsWith("mailto:")) {
                    continue;
                }
                Path file = document.getParent().resolve(target.replaceFirst("#.*$", ""));
                if (!Files.exists(file)) {
                    broken.add(ROOT.relativize(document) + " -> " + target);
                }
            }
        }
        assertThat(documents).hasSizeGreaterThan(3);
        assertThat(broken).as("relative links to missing files").isEmpty();
    }
}
