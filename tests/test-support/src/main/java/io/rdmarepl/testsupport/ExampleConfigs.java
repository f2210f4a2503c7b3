package io.rdmarepl.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The repository's example configurations ({@code config/} and {@code config/rdma/}), for the config loaders' own
 * tests: what operators copy must load. Found from a module's directory (Maven runs tests there).
 */
public final class ExampleConfigs {
    private ExampleConfigs() {
    }

    /**
     * @return every file named one of {@code names} in {@code config/} and {@code config/rdma/}, in that order
     * @throws IllegalStateException if no {@code config/} directory is found above the working directory
     */
    public static List<Path> named(final String... names) {
        final Path config = configDirectory();
        final List<Path> files = new ArrayList<>();
        for (final Path dir : List.of(config, config.resolve("rdma"))) {
            for (final String name : names) {
                if (Files.isRegularFile(dir.resolve(name))) {
                    files.add(dir.resolve(name));
                }
            }
        }
        return files;
    }

    public static Properties read(final Path file) {
        final Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot read example configuration " + file, ex);
        }
        return properties;
    }

    private static Path configDirectory() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("config")) && Files.isRegularFile(dir.resolve("rdmarepl"))) {
                return dir.resolve("config");
            }
        }
        throw new IllegalStateException("no repository config/ directory above " + Path.of("").toAbsolutePath());
    }
}
