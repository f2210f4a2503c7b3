package io.rdmarepl.channel;

import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.WriterEnd;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.shm.ShmWriterEnd;

/** Opens the two ends of a channel over the transport its URI names. */
public final class Transports {
    private Transports() {
    }

    /** The reader (standby) side: creates and owns the ring. */
    public static ReaderEnd openReader(ChannelUri uri, RingSettings settings) {
        return switch (uri.transport()) {
            case SHM -> ShmReaderEnd.create(uri.path(), settings.capacity(), settings.epoch(), settings.ringId(),
                    settings.deleteOnClose());
            case RDMA, SOFTRDMA -> throw notYetAvailable(uri);
        };
    }

    /** The writer (shipper) side: attaches to a ring the reader created. */
    public static WriterEnd openWriter(ChannelUri uri) {
        return switch (uri.transport()) {
            case SHM -> ShmWriterEnd.attach(uri.path());
            case RDMA, SOFTRDMA -> throw notYetAvailable(uri);
        };
    }

    private static UnsupportedOperationException notYetAvailable(ChannelUri uri) {
        return new UnsupportedOperationException("transport " + uri.transport().scheme() + ":// (" + uri
                + ") is not available in this build; use shm:///dev/shm/NAME");
    }
}
