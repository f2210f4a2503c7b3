package io.rdmarepl.config;

import static io.rdmarepl.config.ExampleKeys.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConfigReaderTest {

    @Test
    void shouldFallBackToEveryDefault() {
        ConfigReader reader = reader();
        assertThat(reader.get(SOURCE_NAME)).isEqualTo("primary");
        assertThat(reader.get(RING_CAPACITY_BYTES)).isEqualTo(1 << 26);
        assertThat(reader.get(GROUP_MAX_MS)).isEqualTo(20L);
        assertThat(reader.get(READ_ONLY)).isTrue();
        assertThat(reader.get(SYNCHRONOUS_COMMIT)).isEqualTo("off");
        reader.rejectUnknownKeys();
        reader.throwIfInvalid();
        assertThat(reader.resolved()).containsEntry("ring.capacity.bytes", "67108864").containsEntry("source.name", "primary");
    }

    @Test
    void shouldTrimValuesIgnoreTheCaseOfWordsAndAcceptGroupedDigits() {
        ConfigReader reader = reader("apply.synchronous.commit", " On ", "replica.read.only", "FALSE", "apply.group.max.ms", "1_000");
        assertThat(reader.get(SYNCHRONOUS_COMMIT)).isEqualTo("on");
        assertThat(reader.get(READ_ONLY)).isFalse();
        assertThat(reader.get(GROUP_MAX_MS)).isEqualTo(1000L);
        reader.throwIfInvalid();
    }

    @Test
    void shouldListEveryProblemAtOnceUnderTheSourceNameWithSecretsMasked() {
        ConfigReader reader = reader("ring.capacity.bytes", "12", "apply.group.max.ms", "soon", "replica.read.only", "maybe",
                "apply.synchronous.commit", "remote", "standbys", " , ", "admin.token", "short", "database.password", "hunter2",
                "apply.group.max.mss", "5", "bogus", "1");
        readAll(reader);
        reader.problem(PASSWORD, "hunter2", "is refused by the server");
        reader.rejectUnknownKeys();

        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class, e -> {
            assertThat(e.source()).isEqualTo("example.properties");
            assertThat(e.problems()).containsExactly(
                    "ring.capacity.bytes=12: must be a power of two between 4096 and 1073741824",
                    "apply.group.max.ms=soon: must be a whole number between 0 and 60000",
                    "replica.read.only=maybe: must be true or false",
                    "apply.synchronous.commit=remote: must be one of off, local, on",
                    "standbys=,: name at least one standby",
                    "admin.token=****: must be empty or at least 8 characters",
                    "database.password=****: is refused by the server",
                    "apply.group.max.mss: unknown key (did you mean apply.group.max.ms?)",
                    "bogus: unknown key (every key is in docs/configuration/example.md)");
            assertThat(e.getMessage()).startsWith("example.properties: 9 problems:\n  ring.capacity.bytes=12: ")
                    .contains("\n  bogus: unknown key").doesNotContain("hunter2", "short");
        });
    }

    @Test
    void shouldSayOneProblemInTheSingular() {
        ConfigReader reader = reader("apply.group.max.ms", "-1");
        reader.get(GROUP_MAX_MS);
        assertThatThrownBy(reader::throwIfInvalid)
                .hasMessage("example.properties: 1 problem:\n  apply.group.max.ms=-1: must be between 0 and 60000");
    }

    @Test
    void shouldReportARequiredKeyThatIsNotSetWithTheRuleItsEmptyValueBreaks() {
        ConfigReader reader = reader("standbys", "a,b", "standby.a.uri", "shm:///dev/shm/a");
        assertThat(reader.get(STANDBYS)).containsExactly("a", "b");
        assertThat(reader.get(STANDBY_URI.named("a"))).isEqualTo("shm:///dev/shm/a");
        assertThat(reader.get(STANDBY_URI.named("b"))).isNull();
        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class,
                e -> assertThat(e.problems()).containsExactly("standby.b.uri=: must not be empty"));
    }

    @Test
    void shouldKnowOnlyTheTemplateKeysItReadAndEveryKeyUnderAPrefix() {
        ConfigReader reader = reader("standbys", "a", "standby.a.uri", "shm:///dev/shm/a", "standby.c.uri", "shm:///dev/shm/c",
                "debezium.poll.interval.ms", "1", "debezium.database.password", "${env:RDMAREPL_TEST_TOKEN}");
        reader.get(STANDBYS);
        reader.get(STANDBY_URI.named("a"));
        assertThat(reader.under(DEBEZIUM)).containsExactly(java.util.Map.entry("database.password", "t0ken-from-env"),
                java.util.Map.entry("poll.interval.ms", "1"));
        reader.rejectUnknownKeys();
        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class,
                e -> assertThat(e.problems()).containsExactly("standby.c.uri: unknown key (did you mean standby.a.uri?)"));
    }

    @Test
    void shouldMaskSecretsInTheResolvedConfigurationButShowAnEmptyOne() {
        ConfigReader reader = reader("admin.token", "t0ken-long");
        readAll(reader);
        assertThat(reader.resolved()).containsEntry("admin.token", "****").containsEntry("database.password", "");
    }

    @Test
    void shouldCheckValuesGivenInCodeAgainstTheSameRules() {
        ConfigReader reader = ConfigReader.forSettings("example settings", ALL);
        assertThat(reader.check(GROUP_MAX_MS, 70_000L)).isEqualTo(70_000L);
        reader.check(SOURCE_NAME, null);
        reader.check(TOKEN, "t0ken");
        reader.check(READ_ONLY, true);
        assertThatThrownBy(reader::throwIfInvalid).hasMessage("example settings: 3 problems:\n"
                + "  apply.group.max.ms=70000: must be between 0 and 60000\n"
                + "  source.name=: must not be empty\n"
                + "  admin.token=****: must be empty or at least 8 characters");
    }

    @Test
    void shouldParseTextGivenInCodeAsIfItWereWritten() {
        ConfigReader reader = ConfigReader.forSettings("example settings", ALL);
        assertThat(reader.parse(SYNCHRONOUS_COMMIT, " LOCAL ")).isEqualTo("local");
        assertThat(reader.parse(SYNCHRONOUS_COMMIT, "remote")).as("the default stands in").isEqualTo("off");
        assertThat(reader.parse(SOURCE_NAME, null)).as("null is empty").isEqualTo("primary");
        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .containsExactly("apply.synchronous.commit=remote: must be one of off, local, on", "source.name=: must not be empty"));
    }

    @Test
    void shouldRefuseToReadATemplateOrAPrefixAsOneKey() {
        assertThatThrownBy(() -> reader().get(STANDBY_URI)).hasMessageContaining("standby.<name>.uri is no single key");
        assertThatThrownBy(() -> reader().get(DEBEZIUM)).hasMessageContaining("debezium.* is no single key");
    }

    private static void readAll(ConfigReader reader) {
        for (ConfigKey<?> key : List.of(RING_CAPACITY_BYTES, GROUP_MAX_MS, READ_ONLY, SYNCHRONOUS_COMMIT, STANDBYS, TOKEN, PASSWORD)) {
            reader.get(key);
        }
    }

    static ConfigReader reader(String... keyValues) {
        Properties properties = new Properties();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            properties.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new ConfigReader(ConfigSource.of("example.properties", properties), ALL);
    }
}
