package io.rdmarepl.testsupport;

import java.io.IOException;

/** A running postmaster that this JVM started and can stop (fast shutdown: sessions ended, nothing committed lost). */
interface Postmaster {
    /** Asks for a fast shutdown and returns once it was asked; {@link PostgresServer} then awaits the exit. */
    void stop() throws IOException;
}
