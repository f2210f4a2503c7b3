package io.rdmarepl.coordinator.machine;

import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.handover.CatchUpMarker;
import io.rdmarepl.format.Lsn;

/** Commits no marker: says it did, at {@link #LSN}. */
final class FakeMarker implements CatchUpMarker {
    static final String LSN = "0/5000";

    @Override
    public long emit(MemberConfig primary, String why) {
        return Lsn.parse(LSN);
    }
}
