package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.StandbyView;

/** A standby's applier as the test says it reports: streaming, applied up to an LSN, or unreachable. */
final class FakeStandby implements StandbyMonitor {
    private final String name;
    private volatile StandbyView view;
    /** What a read that waits longer finds, or null: the same as {@link #view()}. */
    private volatile StandbyView patientRead;

    FakeStandby(String name, String appliedLsn) {
        this.name = name;
        applied(appliedLsn);
    }

    void applied(String lsn) {
        view = new StandbyView(name, true, "streaming", lsn, lsn, 3, 0, 1, 1, null);
    }

    void state(String state) {
        StandbyView v = view;
        view = new StandbyView(name, true, state, v.appliedLsn(), v.durableLsn(), 3, 0, 1, 1, null);
    }

    void unreachable() {
        view = StandbyView.unknown(name, "connection refused");
    }

    /** The watch lost it (its reads time out), but a read that waits longer finds it streaming. */
    void slow() {
        patientRead = view;
        view = StandbyView.unknown(name, "GET /status: no answer within 200 ms");
    }

    @Override
    public StandbyView freshView(java.time.Duration wait) {
        StandbyView patient = patientRead;
        return patient != null && !view.reachable() ? patient : view;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StandbyView view() {
        return view;
    }

    @Override
    public String applierError() {
        return null;
    }

    @Override
    public void close() {
    }
}
