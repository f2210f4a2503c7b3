package io.rdmarepl.channel.softverbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvContext;
import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A completion channel: armed completion queues post an event here when a completion arrives. */
final class SoftCompChannel extends com.ibm.disni.verbs.IbvCompChannel {
    private final LinkedBlockingQueue<IbvCQ> events = new LinkedBlockingQueue<>();

    SoftCompChannel(int fd, IbvContext context) throws IOException {
        super(fd, context);
    }

    void signal(IbvCQ cq) {
        events.offer(cq);
    }

    /** @return true when {@code cq} had an event within {@code timeoutMs} (negative: wait for ever) */
    boolean await(IbvCQ cq, int timeoutMs) throws IOException {
        try {
            IbvCQ got = timeoutMs < 0 ? events.take() : events.poll(timeoutMs, TimeUnit.MILLISECONDS);
            return got != null && (cq == null || got == cq);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("ibv_get_cq_event: interrupted", e);
        }
    }
}
