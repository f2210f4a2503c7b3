package io.rdmarepl.applier.apply;

import static io.rdmarepl.applier.testing.Records.i4;
import static io.rdmarepl.applier.testing.Records.insert;
import static io.rdmarepl.applier.testing.Records.relation;
import static io.rdmarepl.applier.testing.Records.sequence;
import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.applier.testing.ApplierFixture;
import io.rdmarepl.testsupport.Await;
import io.rdmarepl.applier.testing.Sql;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sequence records through a real shm ring into a real replica: each sets its sequence to exactly the primary's
 * state, in stream order, whether a transaction follows or not; a sequence the replica lacks pauses apply.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SequenceApplyIT {
    private static final Duration DEADLINE = Duration.ofSeconds(15);
    private static PostgresServer replica;

    @BeforeAll
    static void startReplica() {
        replica = PostgresServer.replica(Durability.FAST);
    }

    @AfterAll
    static void stopReplica() {
        if (replica != null) {
            replica.close();
        }
    }

    @Test
    void shouldSetStandaloneOwnedIdentityAndDescendingSequencesExactlyInStreamOrder() throws Exception {
        Sql.write(replica, "CREATE SEQUENCE standalone;"
                + " CREATE TABLE owned (id serial PRIMARY KEY);"
                + " CREATE TABLE ident (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);"
                + " CREATE SEQUENCE down INCREMENT BY -5;"
                + " CREATE SEQUENCE \"Mixed Case\";"
                + " CREATE TABLE marks (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "sequences")) {
            // between transactions, as the shipper sends them; the last state of each sequence wins, even a lower one
            f.feeder().send(sequence("standalone", 1000, true, 0), sequence("owned_id_seq", 7, false, 0))
                    .send(relation(1, "marks", 'd', "id*")).transaction(1, 0x10, insert(1, i4(1)))
                    .send(sequence("standalone", 900, false, 0), sequence("ident_id_seq", 5000, true, 0),
                            sequence("down", -41, true, 0), sequence("Mixed Case", 3, true, 0))
                    .transaction(2, 0x20, insert(1, i4(2)));
            f.awaitApplied(0x20);
            // applied with the transaction after them: the position at 0/20 implies every state before it is set
            assertThat(state("standalone")).containsExactly("900", "f");
            assertThat(state("owned_id_seq")).containsExactly("7", "f");
            assertThat(state("ident_id_seq")).containsExactly("5000", "t");
            assertThat(state("down")).containsExactly("-41", "t");
            assertThat(state("\"Mixed Case\"")).containsExactly("3", "t");

            // trailing states with no transaction after them are applied too, and the position does not move
            f.feeder().send(sequence("standalone", 901, true, 0), sequence("owned_id_seq", 8, true, 0));
            Await.until("the trailing states applied", DEADLINE, () -> state("owned_id_seq"), s -> s.equals(List.of("8", "t")));
            assertThat(state("standalone")).containsExactly("901", "t");
            ApplierStatus status = f.status();
            assertThat(status.appliedLsn()).isEqualTo(0x20);
            assertThat(status.appliedTxId()).isEqualTo(2);
            assertThat(status.transactionsApplied()).as("units of sequence states are no source transactions").isEqualTo(2);
            assertThat(f.applier().sequenceReadings()).anySatisfy(h -> {
                assertThat(h.name()).isEqualTo("standalone");
                assertThat(h.last().lastValue()).isEqualTo(901);
                assertThat(h.previous().lastValue()).isEqualTo(900);
            });
        }
    }

    @Test
    void shouldPauseOnAMissingSequenceNamingItThenResumeOnceCreated() throws Exception {
        Sql.write(replica, "CREATE TABLE after_ghost (id int PRIMARY KEY)");
        try (ApplierFixture f = ApplierFixture.start(replica, "ghost")) {
            f.feeder().send(relation(1, "after_ghost", 'd', "id*")).transaction(1, 0x10, insert(1, i4(1)))
                    .send(sequence("ghost", 77, true, 0))
                    .transaction(2, 0x20, insert(1, i4(2)));
            ApplierStatus paused = Await.until("apply paused on the missing sequence", DEADLINE, f::status,
                    s -> s.state() == ApplierState.PAUSED_SCHEMA);
            assertThat(paused.lastError()).contains("the replica has no sequence \"public\".\"ghost\"");
            assertThat(paused.appliedLsn()).as("what came before the sequence is applied, nothing after").isEqualTo(0x10);
            assertThat(Sql.count(replica, "SELECT count(*) FROM after_ghost")).isEqualTo(1);

            Sql.write(replica, "CREATE SEQUENCE ghost");
            f.awaitApplied(0x20);
            assertThat(f.status().state()).isEqualTo(ApplierState.STREAMING);
        }
        assertThat(state("ghost")).containsExactly("77", "t");
        assertThat(Sql.count(replica, "SELECT count(*) FROM after_ghost")).isEqualTo(2);
    }

    private static List<String> state(String sequence) throws Exception {
        return Sql.rows(replica, "SELECT last_value, is_called FROM public." + sequence).get(0);
    }
}
