package io.rdmarepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key tables made from descriptors, and the check that fails when a page drifts from them. */
class ConfigTableTest {
    private static final ConfigKeys KEYS = ExampleKeys.ALL;

    @Test
    void shouldMakeOneRowPerKeyWithDefaultValuesAndMeaning() {
        assertThat(ConfigTable.markdown(KEYS).lines()).startsWith(
                "| key | default | values | meaning |",
                "|---|---|---|---|",
                "| `source.name` | `primary` | text, not empty | name of the primary |",
                "| `ring.capacity.bytes` | `67108864` | power of two, 4096..1073741824 | ring data area in bytes |")
                .contains("| `standbys` | required | comma-separated list | standby names |",
                        "| `database.password` | (empty) | text; secret: never printed | its password |",
                        "| `debezium.*` | (empty) | handed on as written | passed to the engine as is |")
                .hasSize(2 + KEYS.keys().size());
    }

    @Test
    void shouldFindNoDriftInACurrentPage() {
        assertThat(ConfigTable.drift(page(ConfigTable.markdown(KEYS)), KEYS)).isEmpty();
    }

    @Test
    void shouldNameEveryKeyWhoseRowDrifted() {
        String current = ConfigTable.markdown(KEYS);
        String drifted = current
                .replace("| `apply.group.max.ms` | `20` |", "| `apply.group.max.ms` | `50` |")
                .replace("| `replica.read.only` | `true` | true, false | read-only for clients |\n", "")
                + "\n| `apply.removed.key` | `1` | 1..2 | gone |";
        assertThat(ConfigTable.drift(page(drifted), KEYS)).containsExactly(
                "apply.group.max.ms: the page says '| `apply.group.max.ms` | `50` | 0..60000 | longest a group stays open |',"
                        + " the descriptors '| `apply.group.max.ms` | `20` | 0..60000 | longest a group stays open |'",
                "replica.read.only: no row in the page (expected '| `replica.read.only` | `true` | true, false | read-only for clients |')",
                "apply.removed.key: a row for a key no descriptor has");
    }

    @Test
    void shouldNoticeRowsInAnotherOrderAndAMissingTable() {
        String current = ConfigTable.markdown(KEYS);
        String first = current.lines().skip(2).findFirst().orElseThrow();
        String reordered = current.replace(first + "\n", "") + "\n" + first;
        assertThat(ConfigTable.drift(page(reordered), KEYS)).singleElement().asString().startsWith("the table's header, order or spacing");
        assertThat(ConfigTable.drift("# no table here\n", KEYS)).singleElement().asString()
                .startsWith("no table between the lines '<!-- config-keys:example ");
    }

    @Test
    void shouldWriteTheCurrentTableIntoADriftedPage(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("example.md"), page("| key |\n| `stale` | 1 | x | y |"));
        assertThat(ConfigTable.verify(file, KEYS, false)).isNotEmpty();
        assertThat(ConfigTable.verify(file, KEYS, true)).isEmpty();
        assertThat(Files.readString(file)).startsWith("# Example\n\nBefore.\n").endsWith("\nAfter.\n")
                .contains(ConfigTable.markdown(KEYS)).doesNotContain("stale");
        assertThatThrownBy(() -> ConfigTable.updated("no table", KEYS)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String page(String table) {
        return "# Example\n\nBefore.\n\n" + ConfigTable.begin(KEYS) + "\n" + table + "\n" + ConfigTable.end(KEYS) + "\n\nAfter.\n";
    }
}
