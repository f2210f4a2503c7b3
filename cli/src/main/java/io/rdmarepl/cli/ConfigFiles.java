package io.rdmarepl.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;

/** Reads a role's {@code .properties} file; a missing file is a one-line error naming it. */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    public static Properties read(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("configuration file " + file + " does not exist");
        }
        return properties;
    }
}
