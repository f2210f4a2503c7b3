package io.rdmarepl.cli.coordinate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logger and those under it silenced until {@link #close()}, which gives back the level it had (usually none: the
 * root's). For work whose messages would mislead, such as a rehearsal's failover; nothing else may log under that
 * name meanwhile. Without logback behind SLF4J it silences nothing.
 */
final class QuietLogs implements AutoCloseable {
    private final Logger logger;
    private final Level before;

    private QuietLogs(Logger logger) {
        this.logger = logger;
        this.before = logger == null ? null : logger.getLevel();
        if (logger != null) {
            logger.setLevel(Level.OFF);
        }
    }

    static QuietLogs of(String name) {
        return new QuietLogs(LoggerFactory.getLogger(name) instanceof Logger logback ? logback : null);
    }

    @Override
    public void close() {
        if (logger != null) {
            logger.setLevel(before);
        }
    }
}
