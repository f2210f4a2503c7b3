package io.rdmarepl.testsupport;

import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A primary and a replica PostgreSQL server, started in parallel (about 1.5 s on two cores) and closed together; each
 * listens on a Unix-domain socket too ({@link PostgresServer#socketDirectory()}), for a sidecar beside it.
 * <pre>
 * try (PostgresPair pair = PostgresPair.start(Durability.FAST))
 * {
 *     pair.primary().execute("CREATE TABLE t (id int PRIMARY KEY)");
 * }
 * </pre>
 */
public final class PostgresPair implements AutoCloseable {
    private final PostgresServer primary;
    private final PostgresServer replica;

    private PostgresPair(final PostgresServer primary, final PostgresServer replica) {
        this.primary = primary;
        this.replica = replica;
    }

    public static PostgresPair start(final Durability durability) {
        return start(durability, PostgresServer.defaultBaseDirectory());
    }

    /**
     * Start both servers; if one fails, the other is closed and the failure thrown.
     */
    public static PostgresPair start(final Durability durability, final Path baseDirectory) {
        Objects.requireNonNull(durability, "durability");
        final CompletableFuture<PostgresServer> replicaStart = CompletableFuture.supplyAsync(
            () -> PostgresServer.builder("replica").durability(durability).baseDirectory(baseDirectory).unixSocket().start(),
            (task) -> new Thread(task, "rdmarepl-postgres-replica-start").start());

        final PostgresServer primary;
        try {
            primary = PostgresServer.builder("primary").durability(durability).baseDirectory(baseDirectory).unixSocket().start();
        } catch (final RuntimeException ex) {
            try {
                awaitReplica(replicaStart).close();
            } catch (final RuntimeException replicaEx) {
                ex.addSuppressed(replicaEx);
            }
            throw ex;
        }

        try {
            return new PostgresPair(primary, awaitReplica(replicaStart));
        } catch (final RuntimeException ex) {
            try {
                primary.close();
            } catch (final RuntimeException primaryEx) {
                ex.addSuppressed(primaryEx);
            }
            throw ex;
        }
    }

    public PostgresServer primary() {
        return primary;
    }

    public PostgresServer replica() {
        return replica;
    }

    public Durability durability() {
        return primary.durability();
    }

    /**
     * Close both servers, even if closing the first fails.
     */
    @Override
    public void close() {
        try {
            replica.close();
        } finally {
            primary.close();
        }
    }

    @Override
    public String toString() {
        return "primary " + primary + "; replica " + replica;
    }

    private static PostgresServer awaitReplica(final CompletableFuture<PostgresServer> replicaStart) {
        try {
            return replicaStart.join();
        } catch (final CompletionException ex) {
            if (ex.getCause() instanceof RuntimeException) {
                throw (RuntimeException)ex.getCause();
            }
            throw ex;
        }
    }
}
