package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The example configs under {@code config/} load through the real loaders and document every key of their role: a
 * comment {@code # <its description, as in docs/configuration/<role>.md> [default: <default>]}, then the key, set or commented out at its default. A
 * key added to a role without an example line fails here.
 */
class ExampleConfigsTest {

    static Stream<Path> exampleConfigs() {
        return RepositoryFiles.exampleConfigs().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exampleConfigs")
    void shouldLoadThroughTheRolesOwnLoader(Path file) {
        Role role = Role.ofFileName(file);
        assertThatCode(() -> role.load(file)).as("%s loaded as rdmarepl %s does", RepositoryFiles.relative(file), role.command())
                .doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exampleConfigs")
    void shouldDocumentEveryKeyOfItsRoleWithDefaultAndReadmeLine(Path file) {
        Role role = Role.ofFileName(file);
        List<String> lines = RepositoryFiles.read(file).lines().toList();
        List<String> problems = new ArrayList<>();
        for (Role.Key key : role.keys()) {
            String shownDefault = key.defaultValue().isEmpty() ? "(empty)" : key.defaultValue();
            String doc = "# " + key.description() + " [default: " + shownDefault + "]";
            String example = "#" + key.name() + "=" + key.defaultValue();
            if (!lines.contains(doc)) {
                problems.add(key.name() + ": no line '" + doc + "'");
            }
            Pattern pattern = keyPattern(key.name());
            List<Matcher> occurrences = lines.stream().map(pattern::matcher).filter(Matcher::matches).toList();
            if (occurrences.isEmpty()) {
                problems.add(key.name() + ": neither set nor commented out; add '" + example + "' under its comment");
            }
            for (Matcher m : occurrences) {
                boolean commented = !m.group(1).isEmpty();
                if (commented && !key.name().endsWith(".*") && !m.group(2).equals(key.defaultValue())) {
                    problems.add(key.name() + ": commented out with '" + m.group(2) + "', not its default '" + key.defaultValue() + "'");
                }
            }
        }
        assertThat(problems).as("%s against the %s keys", RepositoryFiles.relative(file), role.command()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exampleConfigs")
    void shouldSetEveryKeyAtMostOnce(Path file) {
        Map<String, Integer> counts = new HashMap<>();
        for (String line : RepositoryFiles.read(file).lines().toList()) {
            int equals = line.indexOf('=');
            if (!line.isBlank() && !line.startsWith("#") && equals > 0) {
                counts.merge(line.substring(0, equals).trim(), 1, Integer::sum);
            }
        }
        assertThat(counts).as("keys set more than once in %s (the last would win silently)", RepositoryFiles.relative(file))
                .allSatisfy((key, count) -> assertThat(count).as(key).isEqualTo(1));
    }

    @Test
    void shouldProvideEveryRoleInBothDirectionsAndBothStores() {
        Map<String, Properties> byName = new HashMap<>();
        for (Path file : RepositoryFiles.exampleConfigs()) {
            byName.put(RepositoryFiles.relative(file), RepositoryFiles.properties(file));
        }
        for (String directory : List.of("config/", "config/rdma/")) {
            assertThat(byName).as("example configs").containsKeys(directory + "shipper.properties", directory + "applier.properties",
                    directory + "coordinator.properties", directory + "reverse-shipper.properties", directory + "reverse-applier.properties");
            assertThat(byName.get(directory + "reverse-shipper.properties").getProperty("activation")).isEqualTo("on-request");
            assertThat(byName.get(directory + "reverse-applier.properties").getProperty("activation")).isEqualTo("on-request");
            assertThat(byName.get(directory + "shipper.properties").getProperty("activation", "immediate")).isEqualTo("immediate");
        }
        assertThat(byName.get("config/coordinator-zookeeper.properties").getProperty("state.store")).isEqualTo("zookeeper");
        assertThat(byName.get("config/coordinator.properties").getProperty("state.store", "file")).isEqualTo("file");
    }

    /** {@code standby.<name>.uri} matches {@code standby.b.uri}; {@code debezium.*} any key under it; group 1: '#' or ''. */
    private static Pattern keyPattern(String key) {
        String regex = Pattern.quote(key);
        if (key.contains("<name>")) {
            regex = Pattern.quote(key.substring(0, key.indexOf("<name>"))) + "[^.=\\s]+"
                    + Pattern.quote(key.substring(key.indexOf("<name>") + "<name>".length()));
        } else if (key.endsWith(".*")) {
            regex = Pattern.quote(key.substring(0, key.length() - 1)) + "[^=\\s]+";
        }
        return Pattern.compile("(#?)" + regex + "=(.*)");
    }
}
