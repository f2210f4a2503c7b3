package io.rdmarepl.channel;

import io.rdmarepl.channel.ring.ReaderEnd;
import io.rdmarepl.channel.ring.WriterEnd;
import io.rdmarepl.channel.shm.ShmReaderEnd;
import io.rdmarepl.channel.shm.ShmWriterEnd;
import io.rdmarepl.channel.verbs.VerbsReaderEnd;
import io.rdmarepl.channel.verbs.VerbsSettings;
import io.rdmarepl.channel.verbs.VerbsWriterEnd;

/**
 * Opens the two ends of a channel over the transport its URI names. {@code rdma://} and
 * {@code softrdma://} connect hosts over the network and need the cluster's shared secret
 * ({@link ChannelSecurity}); {@code shm://} stays on one host and needs none.
 */
public final class Transports {
    private Transports() {
    }

    /** The reader (standby) side over shm; the network transports need {@link #openReader(ChannelUri, RingSettings, ChannelSecurity)}. */
    public static ReaderEnd openReader(ChannelUri uri, RingSettings settings) {
        return openReader(uri, settings, null);
    }

    /**
     * The reader (standby) side: creates and owns the ring.
     *
     * @param security the shared secret; required for rdma:// and softrdma://, ignored for shm://
     */
    public static ReaderEnd openReader(ChannelUri uri, RingSettings settings, ChannelSecurity security) {
        return switch (uri.transport()) {
            case SHM -> ShmReaderEnd.create(uri.path(), settings.capacity(), settings.epoch(), settings.ringId(),
                    settings.deleteOnClose());
            case RDMA, SOFTRDMA -> VerbsReaderEnd.listen(uri, settings, requireSecurity(uri, security), VerbsSettings.defaults());
        };
    }

    /** The writer (shipper) side over shm; the network transports need {@link #openWriter(ChannelUri, ChannelSecurity)}. */
    public static WriterEnd openWriter(ChannelUri uri) {
        return openWriter(uri, null);
    }

    /**
     * The writer (shipper) side: attaches to a ring the reader created (over the network: connects,
     * retrying for a while if the standby is not up yet, and proves the shared secret).
     */
    public static WriterEnd openWriter(ChannelUri uri, ChannelSecurity security) {
        return switch (uri.transport()) {
            case SHM -> ShmWriterEnd.attach(uri.path());
            case RDMA, SOFTRDMA -> VerbsWriterEnd.connect(uri, requireSecurity(uri, security), VerbsSettings.defaults());
        };
    }

    private static ChannelSecurity requireSecurity(ChannelUri uri, ChannelSecurity security) {
        if (security == null) {
            throw new IllegalArgumentException("channel " + uri + " needs the cluster's shared secret: "
                    + uri.transport().scheme() + ":// reveals the ring only to peers that prove it (set "
                    + ChannelSecurity.SECRET_ENV + ", or pass a ChannelSecurity)");
        }
        return security;
    }
}
