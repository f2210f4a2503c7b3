/**
 * The replication connection of the pgoutput capture engine: PostgreSQL's frontend/backend protocol spoken
 * directly over a socket, the way PostgreSQL's own apply worker reads its stream.
 *
 * <pre>
 *   capture thread                            any thread (standby acknowledgements)
 *     ReplicationConnection.poll(handler)       ReplicationConnection.sendStatus(written, flushed, applied)
 *       StreamDispatch / BackendReader:           StandbyStatus / FrontendWriter:
 *         blocks on the socket, no lock             output lock only, one write + flush at once
 *         XLogData  -> handler.onXLogData           ^
 *         keepalive -> reply if asked --------------'
 *                                             StatusTimer thread: periodic status, receive timeout
 *
 *   open(): TlsNegotiation (SSLRequest, sslmode) -> StartupHandshake -> Authentication (ScramSha256, md5)
 *   commands: SimpleQuery (IDENTIFY_SYSTEM, CREATE_REPLICATION_SLOT, SHOW, SQL), ReplicationCommands
 * </pre>
 *
 * Why not pgjdbc's replication API: {@code PGReplicationStream.read()} holds the connection's lock across the
 * blocking socket read, so a status update from another thread waits for the server's next message, and
 * {@code readPending()} blocks 1 ms in a timed peek on an empty socket. Here the input and the output sides share
 * no lock. pgjdbc stays the shipper's client for all SQL.
 *
 * <p>Wire layouts are in {@link io.rdmarepl.shipper.capture.pgoutput.CopyDataDescriptor} (XLogData, primary
 * keepalive, standby status update) and next to the code that reads or writes the other messages.
 */
package io.rdmarepl.shipper.capture.pgoutput;
