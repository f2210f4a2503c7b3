package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaEventChannel;
import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An rdma_cm event channel: a queue of connection-management events for the ids created on it. */
final class SoftEventChannel extends RdmaEventChannel {
    private final LinkedBlockingQueue<RdmaCmEvent> events = new LinkedBlockingQueue<>();

    SoftEventChannel(int fd) throws IOException {
        super(fd);
    }

    void post(int eventType, SoftCmId listenId, SoftCmId connId, int status) {
        try {
            events.offer(new SoftCmEvent(eventType, listenId, connId, status));
        } catch (IOException e) {
            throw new IllegalStateException("softrdma: cannot create a cm event", e);
        }
    }

    /** @return the next event, or null after {@code timeoutMs} (negative: wait for ever) */
    RdmaCmEvent next(int timeoutMs) throws IOException {
        try {
            return timeoutMs < 0 ? events.take() : events.poll(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("rdma_get_cm_event: interrupted", e);
        }
    }

    /** A cm event with its status set (DiSNI's field is protected). */
    static final class SoftCmEvent extends RdmaCmEvent {
        SoftCmEvent(int event, SoftCmId listenId, SoftCmId connId, int status) throws IOException {
            super(event, listenId, connId);
            this.status = status;
        }
    }
}
