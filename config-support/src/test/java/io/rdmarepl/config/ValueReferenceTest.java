package io.rdmarepl.config;

import static io.rdmarepl.config.ExampleKeys.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ${env:NAME}} and {@code ${file:/path}} values, read from the test JVM's real environment (surefire sets
 * RDMAREPL_TEST_TOKEN and RDMAREPL_TEST_CAPACITY, see this module's pom) and real files.
 */
class ValueReferenceTest {
    @TempDir
    Path dir;

    @Test
    void shouldTakeAValueFromTheEnvironment() {
        ConfigReader reader = ConfigReaderTest.reader("admin.token", "${env:RDMAREPL_TEST_TOKEN}");
        assertThat(reader.get(TOKEN)).isEqualTo("t0ken-from-env");
        assertThat(reader.resolved()).containsEntry("admin.token", "****");
        reader.throwIfInvalid();
    }

    @Test
    void shouldTakeAValueFromAFileWithoutItsTrailingLineBreaks() throws Exception {
        Path secret = Files.writeString(dir.resolve("password"), "  pass word\r\n\n");
        ConfigReader reader = ConfigReaderTest.reader("database.password", "${file:" + secret + "}");
        assertThat(reader.get(PASSWORD)).as("inner and leading spaces are the password's").isEqualTo("  pass word");
        reader.throwIfInvalid();
    }

    @Test
    void shouldReadARelativeFileNextToTheConfigurationFile() throws Exception {
        Files.writeString(dir.resolve("token"), "t0ken-from-file\n");
        Path config = Files.writeString(dir.resolve("example.properties"), "admin.token=${file:token}\n");
        ConfigReader reader = new ConfigReader(ConfigSource.read(config), ALL);
        assertThat(reader.get(TOKEN)).isEqualTo("t0ken-from-file");
        reader.throwIfInvalid();
    }

    @Test
    void shouldNameTheKeyAndTheReferenceButNeverTheValueWhenTheValueBreaksARule() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "short\n");
        ConfigReader reader = ConfigReaderTest.reader("ring.capacity.bytes", "${env:RDMAREPL_TEST_CAPACITY}",
                "admin.token", "${file:" + token + "}");
        reader.get(RING_CAPACITY_BYTES);
        reader.get(TOKEN);
        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class, e -> {
            assertThat(e.problems()).containsExactly(
                    "ring.capacity.bytes=5000 (from ${env:RDMAREPL_TEST_CAPACITY}): must be a power of two between 4096 and 1073741824",
                    "admin.token=**** (from ${file:" + token + "}): must be empty or at least 8 characters");
            assertThat(e.getMessage()).doesNotContain("short");
        });
    }

    @Test
    void shouldReportEveryReferenceThatCannotBeReadNamingKeyAndReference() throws Exception {
        Path unreadable = Files.writeString(dir.resolve("unreadable"), "s3cret-in-file\n");
        Files.setPosixFilePermissions(unreadable, PosixFilePermissions.fromString("---------"));
        boolean runsAsRoot = Files.isReadable(unreadable);
        Properties p = new Properties();
        p.setProperty("database.password", "${env:RDMAREPL_TEST_NOT_SET}");
        p.setProperty("admin.token", "${file:" + dir.resolve("missing") + "}");
        p.setProperty("source.name", "${file:" + dir + "}");
        p.setProperty("apply.synchronous.commit", "${vault:secret/x}");
        p.setProperty("replica.read.only", "${env:not a name}");
        p.setProperty("standbys", "${file:" + unreadable + "}");
        ConfigReader reader = new ConfigReader(ConfigSource.of("example.properties", p), ALL);
        for (ConfigKey<?> key : new ConfigKey<?>[] {PASSWORD, TOKEN, SOURCE_NAME, SYNCHRONOUS_COMMIT, READ_ONLY, STANDBYS}) {
            reader.get(key);
        }
        assertThatThrownBy(reader::throwIfInvalid).isInstanceOfSatisfying(ConfigException.class, e -> {
            assertThat(e.problems()).startsWith(
                    "database.password=${env:RDMAREPL_TEST_NOT_SET}: environment variable RDMAREPL_TEST_NOT_SET is not set",
                    "admin.token=${file:" + dir.resolve("missing") + "}: cannot read " + dir.resolve("missing") + ": it does not exist",
                    "source.name=${file:" + dir + "}: cannot read " + dir + ": it is a directory",
                    "apply.synchronous.commit=${vault:secret/x}: unknown reference kind 'vault': use ${env:NAME} or ${file:/path}",
                    "replica.read.only=${env:not a name}: 'not a name' is not an environment variable name");
            if (!runsAsRoot) {
                assertThat(e.problems()).hasSize(6).last().isEqualTo(
                        "standbys=${file:" + unreadable + "}: cannot read " + unreadable + ": permission denied");
            }
            assertThat(e.getMessage()).doesNotContain("s3cret-in-file");
        });
    }

    @Test
    void shouldTakeAValueThatOnlyContainsAReferenceAsItIs() {
        ConfigReader reader = ConfigReaderTest.reader("source.name", "a${env:RDMAREPL_TEST_TOKEN}");
        assertThat(reader.get(SOURCE_NAME)).isEqualTo("a${env:RDMAREPL_TEST_TOKEN}");
        reader.throwIfInvalid();
    }
}
