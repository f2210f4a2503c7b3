package io.rdmarepl.client;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the coordinators answer, reported once per outage: an outage begins when every coordinator has failed
 * since the last answer (one WARN line, no stack trace: coordinators restart, that is expected) and ends with the
 * next answer (one INFO line). Single failed attempts are DEBUG. Thread safe: the poller and the refresher share it.
 */
final class CoordinatorOutage {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorOutage.class);

    private final List<URI> coordinators;
    private final long retryMaxMs;
    private final Map<URI, String> failuresSinceAnswer = new LinkedHashMap<>();
    private long firstFailureNs;
    private long lastAnswerNs;
    private URI lastAnswered;
    private boolean reported;

    CoordinatorOutage(final List<URI> coordinators, final long retryMaxMs) {
        this.coordinators = List.copyOf(coordinators);
        this.retryMaxMs = retryMaxMs;
    }

    synchronized void recordAnswer(final URI coordinator) {
        final long nowNs = System.nanoTime();
        if (reported) {
            LOG.info("coordinator {} answers again after {} ms without any answer", coordinator,
                TimeUnit.NANOSECONDS.toMillis(nowNs - firstFailureNs));
        }
        failuresSinceAnswer.clear();
        reported = false;
        lastAnswered = coordinator;
        lastAnswerNs = nowNs;
    }

    synchronized void recordFailure(final CoordinatorException failure) {
        if (failuresSinceAnswer.isEmpty()) {
            firstFailureNs = System.nanoTime();
        }
        failuresSinceAnswer.put(failure.coordinator(), failure.getMessage());
        LOG.debug("coordinator request failed: {}", failure.getMessage());
        if (!reported && failuresSinceAnswer.keySet().containsAll(coordinators)) {
            reported = true;
            LOG.warn("no coordinator answers ({}); retrying every {} ms at most, keeping the last topology known",
                failureReasons(), retryMaxMs);
        }
    }

    /**
     * @return true while every coordinator has failed since the last answer.
     */
    synchronized boolean isDown() {
        return reported;
    }

    /**
     * For error messages, e.g. "coordinators [http://c1:8080] not answering for 2013 ms (http://c1:8080: cannot
     * connect (ConnectException: Connection refused))".
     */
    synchronized String describe() {
        final long nowNs = System.nanoTime();
        if (reported || (lastAnswered == null && !failuresSinceAnswer.isEmpty())) {
            return "coordinators " + coordinators + " not answering for " +
                TimeUnit.NANOSECONDS.toMillis(nowNs - firstFailureNs) + " ms (" + failureReasons() + ")";
        }
        if (lastAnswered == null) {
            return "coordinators " + coordinators + " not asked yet";
        }
        return "coordinators " + coordinators + ", last answer from " + lastAnswered + " " +
            TimeUnit.NANOSECONDS.toMillis(nowNs - lastAnswerNs) + " ms ago";
    }

    private String failureReasons() {
        return String.join("; ", failuresSinceAnswer.values());
    }
}
