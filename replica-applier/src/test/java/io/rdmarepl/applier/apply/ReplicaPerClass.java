package io.rdmarepl.applier.apply;

import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One embedded replica server (fast durability) for all the tests of a class, and how long a test waits for it. */
abstract class ReplicaPerClass {
    static final Duration DEADLINE = Duration.ofSeconds(15);
    static PostgresServer replica;

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
}
