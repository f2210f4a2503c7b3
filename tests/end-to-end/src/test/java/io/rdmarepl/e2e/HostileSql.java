package io.rdmarepl.e2e;

import io.rdmarepl.testsupport.PostgresServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hostile schema's SQL files under {@code src/test/resources/hostile/}: statements end with a {@code ;} at the
 * end of a line, {@code --} lines are comments, and {@code -- @block name} starts a block that one session runs
 * (stream.sql). Statements run one by one through JDBC in autocommit, so a file may say BEGIN, SAVEPOINT,
 * PREPARE TRANSACTION as a client would.
 */
final class HostileSql {
    private HostileSql() {
    }

    /** The statements of {@code hostile/<file>}, in order. */
    static List<String> statements(String file) {
        return blocks(file).values().stream().flatMap(List::stream).toList();
    }

    /** The blocks of {@code hostile/<file>} by name, in order; statements before the first block are block "". */
    static Map<String, List<String>> blocks(String file) {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        List<String> current = new ArrayList<>();
        blocks.put("", current);
        StringBuilder statement = new StringBuilder();
        for (String line : read(file).split("\n", -1)) {
            String trimmed = line.strip();
            if (statement.isEmpty() && trimmed.startsWith("-- @block ")) {
                current = new ArrayList<>();
                blocks.put(trimmed.substring("-- @block ".length()), current);
                continue;
            }
            if (statement.isEmpty() && (trimmed.isEmpty() || trimmed.startsWith("--"))) {
                continue;
            }
            statement.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                current.add(statement.toString().strip());
                statement.setLength(0);
            }
        }
        if (!statement.toString().isBlank()) {
            throw new IllegalStateException("hostile/" + file + " ends inside a statement: " + statement);
        }
        blocks.values().removeIf(List::isEmpty);
        return blocks;
    }

    /** Runs {@code statements} one after the other on one session of {@code server}. */
    static void run(PostgresServer server, List<String> statements) throws SQLException {
        try (Connection c = server.connect("postgres"); Statement s = c.createStatement()) {
            for (String sql : statements) {
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    throw new SQLException(server.name() + " refused: " + sql + "\n" + e.getMessage(), e.getSQLState(), e);
                }
            }
        }
    }

    /** Runs {@code hostile/<file>} on one session of {@code server}, wrapping failures unchecked (for setup lambdas). */
    static void runFile(PostgresServer server, String file) {
        try {
            run(server, statements(file));
        } catch (SQLException e) {
            throw new IllegalStateException("hostile/" + file + ": " + e.getMessage(), e);
        }
    }

    private static String read(String file) {
        try (InputStream in = HostileSql.class.getResourceAsStream("/hostile/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource hostile/" + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
