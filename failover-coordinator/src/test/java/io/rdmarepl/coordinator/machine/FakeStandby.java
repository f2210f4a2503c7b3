package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.detect.StandbyMonitor;
import io.rdmarepl.coordinator.detect.StandbyView;

/** A standby's applier as the test says it reports: streaming, applied up to an LSN, or unreachable. */
final class FakeStandby implements StandbyMonitor {
    private final String name;
    private volatile StandbyView view;

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
