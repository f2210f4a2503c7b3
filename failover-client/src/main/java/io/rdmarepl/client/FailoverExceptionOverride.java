package io.rdmarepl.client;

import java.sql.SQLException;

import com.zaxxer.hikari.SQLExceptionOverride;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HikariCP's seam for every SQLException thrown through a borrowed connection. A failover error means the
 * whole server is no longer usable as primary, not just this connection: the pool soft-evicts every connection
 * and the topology is asked for at once ({@code onFailoverError}).
 * <p>
 * Hikari is told not to evict this one connection itself: it would log a WARN with a stack trace per
 * connection, and a failover is expected. The soft eviction closes the connection when it is returned.
 */
final class FailoverExceptionOverride implements SQLExceptionOverride {
    private static final Logger LOG = LoggerFactory.getLogger(FailoverExceptionOverride.class);

    private final Runnable onFailoverError;

    FailoverExceptionOverride(final Runnable onFailoverError) {
        this.onFailoverError = onFailoverError;
    }

    @java.lang.Override // qualified: Override alone names HikariCP's enum here
    public Override adjudicate(final SQLException error) {
        if (FailoverErrors.isFailoverError(error)) {
            try {
                onFailoverError.run();
            } catch (final RuntimeException ex) {
                // never replace the caller's SQLException with ours: the pool evicts this connection as usual
                LOG.error("reacting to a failover error failed", ex);
                return Override.CONTINUE_EVICT;
            }
            return Override.DO_NOT_EVICT;
        }
        return Override.CONTINUE_EVICT;
    }
}
