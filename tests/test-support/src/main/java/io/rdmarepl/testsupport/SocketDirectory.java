package io.rdmarepl.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a {@link PostgresServer} that listens on a Unix-domain socket ({@link PostgresServerBuilder#unixSocket()}) puts
 * it: {@code sock} in its instance directory when the socket file's path fits the kernel's 107 bytes there, else a
 * directory of its own under the system's temporary directory, deleted with the server.
 */
final class SocketDirectory {
    private SocketDirectory() {
    }

    static Path create(final Path instanceDirectory, final int port) throws IOException {
        final Path inside = instanceDirectory.resolve("sock");
        final Path directory = inside.resolve(".s.PGSQL." + port).toString().length() <= 100 ? inside
            : Files.createTempDirectory("rdmarepl-pg");
        Files.createDirectories(directory);
        return directory;
    }

    /** Deletes {@code directory} unless it is null or inside {@code instanceDirectory} (deleted with it). */
    static void deleteOutside(final Path directory, final Path instanceDirectory) {
        if (directory != null && !directory.startsWith(instanceDirectory)) {
            StaleServers.deleteRecursively(directory);
        }
    }
}
