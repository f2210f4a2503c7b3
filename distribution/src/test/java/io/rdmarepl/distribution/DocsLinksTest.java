package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link in the README and docs/ (its subdirectories too) points at a file that exists, and a link
 * with a {@code #anchor} into a Markdown file (or within the same one) at a heading that exists there, named as
 * GitHub names it (web links are not followed here).
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Path ROOT = Path.of("..");

    @Test
    void shouldResolveEveryRelativeLinkAndAnchor() throws IOException {
        List<Path> documents = documents(ROOT);
        assertThat(documents).hasSizeGreaterThan(3);
        assertThat(brokenLinks(ROOT, documents)).as("relative links to missing files or headings").isEmpty();
    }

    @Test
    void shouldReportAMissingFileAndAMissingAnchor(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("README.md"), """
                # Title
                [ok](docs/a.md#failover-the-lease-rule) [ok](#title) [no file](docs/gone.md) [no heading](docs/a.md#the-lease)
                [no local heading](#nothing) [web](https://example.com/x#y)
                """);
        Files.writeString(root.resolve("docs/a.md"), """
                # A
                ```sh
                # not a heading
                ```
                ## Failover: the lease rule
                [ok](../README.md#title) [in code](#not-a-heading)
                """);
        assertThat(brokenLinks(root, documents(root))).containsExactly(
                "README.md -> docs/gone.md (no such file)",
                "README.md -> docs/a.md#the-lease (no such heading)",
                "README.md -> #nothing (no such heading)",
                "docs/a.md -> #not-a-heading (no such heading)");
    }

    @Test
    void shouldNameHeadingsAsGitHubDoes() {
        assertThat(anchors("""
                # rdmarepl: manual
                ## `rdmarepl ship` (`shipper.properties`)
                ### In containers (`Dockerfile`, `docker-compose.yml`)
                ## Network: RoCE v2, InfiniBand, iWARP
                ## Runbook
                ## Runbook
                ## Sync mode (`replication.mode=sync`)
                <a id="kept-anchor"></a>
                """)).containsExactlyInAnyOrder("rdmarepl-manual", "rdmarepl-ship-shipperproperties",
                "in-containers-dockerfile-docker-composeyml", "network-roce-v2-infiniband-iwarp", "runbook", "runbook-1",
                "sync-mode-replicationmodesync", "kept-anchor");
    }

    private static List<Path> documents(Path root) throws IOException {
        List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    private static List<String> brokenLinks(Path root, List<Path> documents) throws IOException {
        Map<Path, Set<String>> anchorsByFile = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path document : documents) {
            Matcher link = LINK.matcher(withoutCode(Files.readString(document)));
            while (link.find()) {
                String target = link.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path file = path.isEmpty() ? document : document.getParent().resolve(path).normalize();
                String where = root.relativize(document) + " -> " + target;
                if (!Files.exists(file)) {
                    broken.add(where + " (no such file)");
                } else if (hash >= 0 && file.toString().endsWith(".md")) {
                    Set<String> anchors = anchorsByFile.computeIfAbsent(file, DocsLinksTest::anchors);
                    if (!anchors.contains(target.substring(hash + 1))) {
                        broken.add(where + " (no such heading)");
                    }
                }
            }
        }
        return broken;
    }

    private static Set<String> anchors(Path file) {
        try {
            return anchors(Files.readString(file));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The anchors GitHub gives a Markdown text: one per heading outside code blocks (repeats get -1, -2...), and HTML anchors. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /** GitHub's heading id: the text without markup, lower case, punctuation dropped (but - and _), spaces as -. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M}_\\- ]", "").replace(' ', '-');
    }

    /** The text with fenced code blocks and inline code blanked, so that link-like code is not taken for a link. */
    private static String withoutCode(String markdown) {
        StringBuilder text = new StringBuilder();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                text.append('\n');
                continue;
            }
            text.append(inFence ? "" : line.replaceAll("`[^`]*`", "``")).append('\n');
        }
        return text.toString();
    }
}
