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
 * tests (what operators copy must load) and the host clusters that run them. Found from a module's directory (Maven runs
 * tests there) or from the harness jar's.
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

    /**
     * {@code config/} of the repository above the working directory, else above where this class was loaded from (the
     * harness jar under {@code harness/target}, run from anywhere).
     */
    private static Path configDirectory() {
        List<Path> starts = new ArrayList<>(List.of(Path.of("").toAbsolutePath()));
        try {
            starts.add(Path.of(ExampleConfigs.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath());
        } catch (final java.net.URISyntaxException | RuntimeException ex) {
            // no code source to start from: the working directory only
        }
        for (final Path start : starts) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                if (Files.isDirectory(dir.resolve("config")) && Files.isRegularFile(dir.resolve("rdmarepl"))) {
                    return dir.resolve("config");
                }
            }
        }
        throw new IllegalStateException("no repository config/ directory above " + starts);
    }
}
