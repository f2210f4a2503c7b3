package io.rdmarepl.distribution;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/** Files of the repository this module ships: the tests run in {@code distribution/}, one below the root. */
final class RepositoryFiles {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CONFIG = ROOT.resolve("config");

    private RepositoryFiles() {
    }

    /** Every example config under {@code config/}, sorted. */
    static List<Path> exampleConfigs() {
        try (Stream<Path> files = Files.walk(CONFIG)) {
            return files.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Properties properties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code config/rdma/applier.properties}, for messages. */
    static String relative(Path file) {
        return ROOT.relativize(file.toAbsolutePath().normalize()).toString();
    }
}
