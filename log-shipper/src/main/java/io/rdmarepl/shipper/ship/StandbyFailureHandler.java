package io.rdmarepl.shipper.ship;

import com.lmax.disruptor.ExceptionHandler;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby handler that fails (ring replaced, writer fenced) stops shipping for good: its record
 * is lost to that ring, so carrying on would break the stream. The shipper notices the failure and
 * stops; restarted, it re-sends from what the standbys acknowledged.
 */
final class StandbyFailureHandler implements ExceptionHandler<ShipEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(StandbyFailureHandler.class);
    private final List<StandbyShipper> shippers;

    StandbyFailureHandler(List<StandbyShipper> shippers) {
        this.shippers = shippers;
    }

    @Override
    public void handleEventException(Throwable ex, long sequence, ShipEvent event) {
        String reason = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        String current = Thread.currentThread().getName();
        for (StandbyShipper shipper : shippers) {
            if (current.endsWith("-" + shipper.standby().name())) {
                shipper.failed(reason);
            }
        }
        LOG.error("shipping stopped: {}", reason);
        throw new IllegalStateException(reason, ex);
    }

    @Override
    public void handleOnStartException(Throwable ex) {
        LOG.error("standby handler failed to start: {}", ex.getMessage());
    }

    @Override
    public void handleOnShutdownException(Throwable ex) {
        LOG.warn("standby handler failed to stop cleanly: {}", ex.getMessage());
    }
}
