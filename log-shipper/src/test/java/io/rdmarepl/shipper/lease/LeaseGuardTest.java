package io.rdmarepl.shipper.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guard's decisions over a lease file in memory, on a clock the test turns, with a fence that answers as told. */
class LeaseGuardTest {
    private static final long LEASE_NS = TimeUnit.MILLISECONDS.toNanos(2000);
    private static final long SHIPPER_PID = 100;
    private static final long GUARD_PID = 200;

    private final ByteBuffer memory = ByteBuffer.allocateDirect(LeaseFileDescriptor.FILE_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    private final LeaseFile file = LeaseFile.wrap("lease", memory);
    private final Set<Long> running = new HashSet<>(Set.of(SHIPPER_PID));
    private final Deque<String> answers = new ArrayDeque<>(); // "ok" or an error message, one per attempt
    private int attempts;
    private long nowNs = TimeUnit.SECONDS.toNanos(1000);

    @BeforeEach
    void newFile() {
        file.initialise(UUID.randomUUID(), "p:5432/postgres");
    }

    @Test
    void shouldNotFenceWhileContactsArriveWithinTheLease() {
        LeaseGuard guard = following();
        for (int i = 0; i < 100; i++) {
            shipper(LeaseState.ARMED, nowNs);
            assertThat(after(100, guard)).isNull();
        }
        assertThat(attempts).isZero();
        assertThat(file.readGuard().fence()).isEqualTo(FenceState.NOT_NEEDED);
        assertThat(file.readGuard().checkedNs()).isEqualTo(nowNs);
    }

    @Test
    void shouldFenceOnceTheLastContactIsOlderThanTheLeaseThenBeDone() {
        LeaseGuard guard = following();
        long contactNs = nowNs;
        shipper(LeaseState.ARMED, contactNs);
        running.remove(SHIPPER_PID); // kill -9

        assertThat(after(2000, guard)).as("not longer than the lease yet").isNull();
        assertThat(attempts).isZero();
        answers.add("ok");
        assertThat(after(100, guard)).isEqualTo("fenced the primary; the shipper's next start brings a guard of its own");

        GuardRecord record = file.readGuard();
        assertThat(record.fence()).isEqualTo(FenceState.DONE);
        assertThat(record.lapsedContactNs()).isEqualTo(contactNs);
        assertThat(record.attempts()).isEqualTo(1);
        assertThat(record.fenceDoneNs()).isEqualTo(nowNs);
        assertThat(record.fenced(contactNs)).isTrue();
    }

    @Test
    void shouldRetryAFailedFenceEveryRetryIntervalKeepingStateAndErrorInTheFile() {
        LeaseGuard guard = following();
        shipper(LeaseState.ARMED, nowNs);
        answers.addAll(List.of("Connection refused", "Connection refused", "ok"));

        assertThat(after(2100, guard)).isNull();
        assertThat(file.readGuard().fence()).isEqualTo(FenceState.RETRYING);
        assertThat(file.readGuard().lastError()).isEqualTo("Connection refused");
        assertThat(after(100, guard)).as("the next attempt waits %d ms", LeaseGuard.RETRY_INTERVAL_MS).isNull();
        assertThat(attempts).isEqualTo(1);
        assertThat(after(100, guard)).isNull();
        assertThat(attempts).isEqualTo(2);
        assertThat(after(200, guard)).isNotNull();
        assertThat(file.readGuard().fence()).isEqualTo(FenceState.DONE);
        assertThat(file.readGuard().attempts()).isEqualTo(3);
    }

    @Test
    void shouldGoWithoutFencingOnceTheShipperReleasedTheLease() {
        LeaseGuard guard = following();
        shipper(LeaseState.ARMED, nowNs);
        assertThat(after(100, guard)).isNull();
        shipper(LeaseState.RELEASED, nowNs);
        assertThat(after(100, guard)).isEqualTo("the shipper stopped cleanly and released the lease");
        assertThat(after(10_000, guard)).isEqualTo("the shipper stopped cleanly and released the lease");
        assertThat(attempts).isZero();
    }

    @Test
    void shouldWatchOnAfterAReleaseWhenStartedApartAndGuardTheNextShippersLease() {
        LeaseGuard guard = apart();
        shipper(LeaseState.RELEASED, nowNs);
        assertThat(after(10_000, guard)).isNull();
        assertThat(attempts).isZero();

        shipper(LeaseState.ARMED, nowNs); // the next shipper heard from its standby
        answers.add("ok");
        assertThat(after(2100, guard)).isNull();
        assertThat(attempts).isEqualTo(1);
        assertThat(file.readGuard().fence()).isEqualTo(FenceState.DONE);
    }

    @Test
    void shouldFenceALapseToTheEndEvenWhenTheShipperReleasesMeanwhile() {
        LeaseGuard guard = following();
        shipper(LeaseState.ARMED, nowNs);
        answers.addAll(List.of("timeout", "ok"));
        assertThat(after(2100, guard)).isNull();
        shipper(LeaseState.RELEASED, nowNs - LEASE_NS);
        assertThat(after(200, guard)).isEqualTo("fenced the primary; the shipper's next start brings a guard of its own");
        assertThat(attempts).isEqualTo(2);
    }

    @Test
    void shouldNotFenceALapseAnEarlierGuardFencedAndKeepItsRecord() {
        long contactNs = nowNs;
        shipper(LeaseState.ARMED, contactNs);
        answers.add("ok");
        after(2100, following());
        assertThat(attempts).isEqualTo(1);

        LeaseGuard second = following(); // the restarted shipper's guard
        assertThat(file.readGuard().fence()).as("carried over").isEqualTo(FenceState.DONE);
        assertThat(file.readGuard().pid()).isEqualTo(GUARD_PID);
        assertThat(after(100, second)).isNull();
        assertThat(attempts).as("that lapse is fenced already").isEqualTo(1);

        shipper(LeaseState.ARMED, nowNs); // heard from a standby again: a new lease
        answers.add("ok");
        assertThat(after(2100, second)).isNotNull();
        assertThat(attempts).as("a new lapse is fenced").isEqualTo(2);
    }

    @Test
    void shouldGoWhenItsShipperIsGoneAndNoLeaseCounts() {
        LeaseGuard guard = following();
        shipper(LeaseState.NONE, 0);
        assertThat(after(100, guard)).isNull();
        running.remove(SHIPPER_PID);
        assertThat(after(100, guard)).isEqualTo("shipper pid 100 is gone and no lease counts");
    }

    /**
     * Seen in a clean verify (FailoverIT, 2026-12-06): the guard's first look met the shipper's first record half
     * written, took the empty record for its shipper's (pid 0, gone) and exited; the shipper then refused to start.
     */
    @Test
    void shouldNotTakeAFirstRecordBeingWrittenForAShipperThatIsGone() {
        LeaseGuard guard = following();
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, 1); // the first record, being written
        assertThat(after(100, guard)).as("a record being written says nothing of its shipper").isNull();
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, 0); // its writer resumes: the write completes
        file.writeShipper(new ShipperRecord(SHIPPER_PID, LeaseState.NONE, LEASE_NS, 0, "", nowNs));
        assertThat(after(100, guard)).as("its shipper runs").isNull();
        running.remove(SHIPPER_PID);
        assertThat(after(100, guard)).isEqualTo("shipper pid 100 is gone and no lease counts");
    }

    @Test
    void shouldGiveUpOnAFirstRecordTornForGood() {
        LeaseGuard guard = following();
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, 1); // its writer died writing it
        for (int check = 1; check < LeaseGuard.UNREAD_CHECKS_BEFORE_GIVING_UP; check++) {
            assertThat(after(100, guard)).isNull();
        }
        assertThat(after(100, guard)).isEqualTo("shipper pid 0 is gone and no lease counts");
    }

    @Test
    void shouldGoByTheLastGoodRecordWhenTheShippersRecordIsTornForGood() {
        LeaseGuard guard = following();
        shipper(LeaseState.ARMED, nowNs);
        assertThat(after(100, guard)).isNull();
        file.writeShipper(new ShipperRecord(SHIPPER_PID, LeaseState.ARMED, LEASE_NS, nowNs, "standby b", nowNs));
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, memory.getLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET) + 1);
        running.remove(SHIPPER_PID); // killed while writing
        answers.add("ok");
        assertThat(after(2100, guard)).isNotNull();
        assertThat(attempts).isEqualTo(1);
    }

    private LeaseGuard following() {
        return new LeaseGuard(file, this::fence, GUARD_PID, true, () -> nowNs, running::contains);
    }

    private LeaseGuard apart() {
        return new LeaseGuard(file, this::fence, GUARD_PID, false, () -> nowNs, running::contains);
    }

    private String after(long ms, LeaseGuard guard) {
        nowNs += TimeUnit.MILLISECONDS.toNanos(ms);
        return guard.check();
    }

    private void shipper(LeaseState state, long contactNs) {
        file.writeShipper(new ShipperRecord(SHIPPER_PID, state, LEASE_NS, contactNs, "standby b", nowNs));
    }

    private int fence() throws SQLException {
        attempts++;
        String answer = answers.poll();
        if (!"ok".equals(answer)) {
            throw new SQLException(answer == null ? "no answer planned" : answer);
        }
        return 2;
    }
}
