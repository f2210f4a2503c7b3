package io.rdmarepl.cli.coordinate;

import org.slf4j.LoggerFactory;

/**
 * A logger and those under it silenced until {@link #close()}, which gives back the level it had (usually none: the
 * root's). For work whose messages would mislead, such as a rehearsal's failover; nothing else may log under that
 * name meanwhile. Only with logback behind SLF4J (the product's jar); with another binding (a test's classpath) it
 * silences nothing, and loads no logback class.
 */
final class QuietLogs implements AutoCloseable {
    private static final String LOGBACK_LOGGER = "ch.qos.logback.classic.Logger";
    private final Runnable restore;

    private QuietLogs(Runnable restore) {
        this.restore = restore;
    }

    static QuietLogs of(String name) {
        org.slf4j.Logger logger = LoggerFactory.getLogger(name);
        return new QuietLogs(LOGBACK_LOGGER.equals(logger.getClass().getName()) ? Logback.silence(logger) : () -> { });
    }

    @Override
    public void close() {
        restore.run();
    }

    /** Every logback type stays in here: loaded only when logback is the binding. */
    private static final class Logback {
        static Runnable silence(org.slf4j.Logger logger) {
            ch.qos.logback.classic.Logger logback = (ch.qos.logback.classic.Logger) logger;
            ch.qos.logback.classic.Level before = logback.getLevel();
            logback.setLevel(ch.qos.logback.classic.Level.OFF);
            return () -> logback.setLevel(before);
        }
    }
}
