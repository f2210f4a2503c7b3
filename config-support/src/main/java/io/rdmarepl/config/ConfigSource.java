package io.rdmarepl.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Properties;

/**
 * Where a configuration's text comes from: its properties and the name problems are reported under.
 *
 * @param name       the file as given ({@code /etc/rdmarepl/shipper.properties}) or what the properties are
 *                   ({@code shipper configuration})
 * @param properties the keys as written
 * @param directory  the file's directory, against which a relative {@code ${file:...}} is read; null for properties
 *                   that come from no file (then the working directory)
 */
public record ConfigSource(String name, Properties properties, Path directory) {
    public ConfigSource {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(properties, "properties");
    }

    public static ConfigSource of(String name, Properties properties) {
        return new ConfigSource(name, properties, null);
    }

    /**
     * Reads a properties file (UTF-8).
     *
     * @throws IllegalArgumentException naming the file when it cannot be read
     */
    public static ConfigSource read(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read configuration file " + file + ": it does not exist", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read configuration file " + file + ": " + e.getMessage(), e);
        }
        Path parent = file.toAbsolutePath().getParent();
        return new ConfigSource(file.toString(), properties, parent);
    }
}
