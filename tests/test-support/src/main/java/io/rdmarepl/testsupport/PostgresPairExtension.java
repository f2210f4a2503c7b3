package io.rdmarepl.testsupport;

import java.util.Objects;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link PostgresPair} shared by all tests of a class: started before the first test, closed after the last,
 * even when tests fail. Register it on a static field:
 * <pre>
 * &#64;RegisterExtension
 * static final PostgresPairExtension POSTGRES = new PostgresPairExtension(Durability.FAST);
 *
 * &#64;Test
 * void shouldReplicateInsert() throws Exception
 * {
 *     POSTGRES.primary().execute("CREATE TABLE t (id int PRIMARY KEY)");
 * }
 * </pre>
 * Tests of one class share the servers, so each should use its own tables, databases or slot names.
 */
public final class PostgresPairExtension implements BeforeAllCallback, AfterAllCallback {
    private final Durability durability;
    private volatile PostgresPair pair;
    private volatile String ownerId;

    public PostgresPairExtension(final Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
    }

    @Override
    public void beforeAll(final ExtensionContext context) {
        if (pair == null) {
            // @Nested classes see the outer class's extension: the outermost class starts and closes the pair
            pair = PostgresPair.start(durability);
            ownerId = context.getUniqueId();
        }
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        final PostgresPair started = pair;
        if (started != null && context.getUniqueId().equals(ownerId)) {
            pair = null;
            started.close();
        }
    }

    public PostgresPair pair() {
        final PostgresPair started = pair;
        if (started == null) {
            throw new IllegalStateException(
                "no PostgreSQL pair: register PostgresPairExtension with @RegisterExtension on a static field");
        }
        return started;
    }

    public PostgresServer primary() {
        return pair().primary();
    }

    public PostgresServer replica() {
        return pair().replica();
    }
}
