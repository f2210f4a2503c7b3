/**
 * Change records that flow from the shipper to the applier, the PostgreSQL {@link io.rdmarepl.format.Lsn},
 * and the vocabulary shared by the binary codec ({@link io.rdmarepl.format.codec}) and the allocating
 * value records ({@link io.rdmarepl.format.record}).
 *
 * <p>The format knows nothing of transports: it reads and writes {@code (ByteBuffer, offset, length)}.
 */
package io.rdmarepl.format;
