package io.rdmarepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourceTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadAFileAsUtf8UnderItsName() throws Exception {
        Path file = Files.writeString(dir.resolve("shipper.properties"), "source.name=Zürich\n");
        ConfigSource source = ConfigSource.read(file);
        assertThat(source.name()).isEqualTo(file.toString());
        assertThat(source.properties().getProperty("source.name")).isEqualTo("Zürich");
        assertThat(source.directory()).isEqualTo(dir.toAbsolutePath());
    }

    @Test
    void shouldNameAFileThatCannotBeRead() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> ConfigSource.read(missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot read configuration file " + missing + ": it does not exist");
        assertThatThrownBy(() -> ConfigSource.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read configuration file " + dir + ": ");
    }
}
