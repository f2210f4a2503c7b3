package io.rdmarepl.client;

import java.util.List;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * Records what one class logs at {@code level} and above, through a real logback appender, instead of the console.
 */
final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final Level previousLevel;
    private final boolean previousAdditive;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture(final Class<?> source, final Level level) {
        logger = (Logger) LoggerFactory.getLogger(source);
        previousLevel = logger.getLevel();
        previousAdditive = logger.isAdditive();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(level);
        logger.setAdditive(false);
    }

    List<ILoggingEvent> events(final Level level) {
        // the appender appends under its own lock
        synchronized (appender) {
            return appender.list.stream().filter((e) -> e.getLevel() == level).collect(Collectors.toList());
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previousLevel);
        logger.setAdditive(previousAdditive);
    }
}
