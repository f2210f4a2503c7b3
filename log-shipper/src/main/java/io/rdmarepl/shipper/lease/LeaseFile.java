package io.rdmarepl.shipper.lease;

import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.ATTEMPTS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.BOOT_ID_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.CHECKED_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.CONTACT_TEXT_CAPACITY;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.CONTACT_TEXT_LENGTH_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.CONTACT_TEXT_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.ERROR_TEXT_CAPACITY;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.ERROR_TEXT_LENGTH_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.ERROR_TEXT_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.FENCE_DONE_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.FENCE_STARTED_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.FENCE_STATE_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.FILE_LENGTH;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.FILE_LENGTH_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.GUARD_CRC_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.GUARD_PID_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.GUARD_SEQUENCE_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.HEADER_CRC_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LAPSED_CONTACT_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LAST_CONTACT_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LAYOUT_VERSION;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LAYOUT_VERSION_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LEASE_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.LEASE_STATE_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.MAGIC;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.MAGIC_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.PRIMARY_HASH_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.PRIMARY_TEXT_CAPACITY;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.PRIMARY_TEXT_LENGTH_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.PRIMARY_TEXT_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.PUBLISHED_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.SHIPPER_CRC_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.SHIPPER_PID_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.WATCHED_CONTACT_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.WATCHED_LEASE_NS_OFFSET;
import static io.rdmarepl.shipper.lease.LeaseFileDescriptor.WATCHED_STATE_OFFSET;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The lease file mapped into this process ({@link LeaseFileDescriptor}): the header, the shipper's record and the
 * guard's, each read and written whole. A process writes only its own record; writes are serialised within it.
 */
public final class LeaseFile {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** A live writer holds its sequence odd for well under a microsecond; this many looks is far longer. */
    private static final int TORN_RETRIES = 10_000;

    /** The header: which boot wrote the times, and which primary the lease is of. */
    public record Header(UUID bootId, long primaryHash, String primary) {
        /** Written during this boot of the host. */
        public boolean thisBoot() {
            return bootId.equals(BootId.CURRENT);
        }
    }

    private final String name;
    private final ByteBuffer buffer;
    private final ByteBuffer copy = ByteBuffer.allocate(FILE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer crcView;
    private final ByteBuffer copyCrcView = copy.duplicate();
    private final CRC32C crc = new CRC32C();

    private LeaseFile(String name, ByteBuffer buffer) {
        this.name = name;
        this.buffer = buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
        this.crcView = this.buffer.duplicate();
        LeaseFileDescriptor.checkLength(name, this.buffer.capacity());
    }

    /** A lease file over {@code buffer} ({@link LeaseFileDescriptor#FILE_LENGTH} bytes), named {@code name} in messages. */
    public static LeaseFile wrap(String name, ByteBuffer buffer) {
        return new LeaseFile(name, buffer);
    }

    /**
     * Maps {@code path}, creating it (owner read and write only: whoever writes it decides when the primary is fenced)
     * when {@code create} and it is missing. A new file reads as not initialised until {@link #initialise} ran.
     *
     * @throws NoSuchFileException when it is missing and not to be created
     * @throws IOException         when it cannot be created or mapped
     */
    public static LeaseFile map(Path path, boolean create) throws IOException {
        try (FileChannel channel = create ? createOrOpen(path)
                : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            checkPrivate(path);
            if (!create) {
                LeaseFileDescriptor.checkLength(path.toString(), channel.size());
            }
            return new LeaseFile(path.toString(), channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_LENGTH));
        }
    }

    private static FileChannel createOrOpen(Path path) throws IOException {
        try {
            return FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        }
    }

    /**
     * Whoever may write the lease file decides when the primary is fenced: it must be this process's user's, and
     * writable by no one else (a file another user put in {@code /dev/shm} under its name first is refused).
     *
     * @throws LeaseFileException naming the file, its owner or mode, and what to do
     */
    private static void checkPrivate(Path path) throws IOException {
        int ownerUid;
        int ownUid;
        Set<PosixFilePermission> permissions;
        try {
            ownerUid = (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            ownUid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            permissions = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException | NoSuchFileException e) {
            return; // no POSIX owner to check on this file system or platform
        }
        if (ownerUid != ownUid) {
            throw new LeaseFileException(path + " belongs to uid " + ownerUid + ", not to uid " + ownUid + " who runs this: whoever may"
                    + " write the lease file decides when the primary is fenced; remove the file, or set fence.lease.dir to a directory"
                    + " of this user's own");
        }
        if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new LeaseFileException(path + " may be written by others (mode " + PosixFilePermissions.toString(permissions) + "):"
                    + " whoever may write the lease file decides when the primary is fenced; chmod 600 it");
        }
    }

    /** The file's path, for messages. */
    public String name() {
        return name;
    }

    /** Whether the header is complete (its magic is written last). */
    public boolean initialised() {
        return (long) LONG.getAcquire(buffer, MAGIC_OFFSET) != 0;
    }

    /** Starts the file over for {@code primary}: zero records, a new header, the magic last. */
    public synchronized void initialise(UUID bootId, String primary) {
        LONG.setVolatile(buffer, MAGIC_OFFSET, 0L);
        for (int i = Long.BYTES; i < FILE_LENGTH; i += Long.BYTES) {
            buffer.putLong(i, 0L);
        }
        buffer.putInt(LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putInt(FILE_LENGTH_OFFSET, FILE_LENGTH);
        buffer.putLong(BOOT_ID_OFFSET, bootId.getMostSignificantBits());
        buffer.putLong(BOOT_ID_OFFSET + Long.BYTES, bootId.getLeastSignificantBits());
        buffer.putLong(PRIMARY_HASH_OFFSET, primaryHash(primary));
        putText(buffer, PRIMARY_TEXT_LENGTH_OFFSET, PRIMARY_TEXT_OFFSET, PRIMARY_TEXT_CAPACITY, utf8(primary, PRIMARY_TEXT_CAPACITY));
        buffer.putInt(HEADER_CRC_OFFSET, crc(crcView, LAYOUT_VERSION_OFFSET, HEADER_CRC_OFFSET));
        LONG.setRelease(buffer, MAGIC_OFFSET, MAGIC);
    }

    /**
     * @throws LeaseFileException when the file is not initialised ({@link LeaseFileException#torn()}: its creator may
     *     still write it), not a lease file, of another layout version, or its header fails its CRC
     */
    public synchronized Header readHeader() {
        long magic = (long) LONG.getAcquire(buffer, MAGIC_OFFSET);
        if (magic == 0) {
            throw new LeaseFileException(name + " is not initialised (its creator is writing it, or died before it finished)", true);
        }
        if (magic != MAGIC) {
            throw new LeaseFileException(name + " is not a lease file: magic 0x" + Long.toHexString(magic) + ", a lease file's is 0x"
                    + Long.toHexString(MAGIC));
        }
        int version = buffer.getInt(LAYOUT_VERSION_OFFSET);
        if (version != LAYOUT_VERSION) {
            throw new LeaseFileException(name + " has lease file layout version " + version + ", this build reads version "
                    + LAYOUT_VERSION + ": stop the shipper and lease guard of the other version, then delete the file");
        }
        int stored = buffer.getInt(HEADER_CRC_OFFSET);
        int computed = crc(crcView, LAYOUT_VERSION_OFFSET, HEADER_CRC_OFFSET);
        if (stored != computed) {
            throw crcMismatch("header", stored, computed);
        }
        UUID bootId = new UUID(buffer.getLong(BOOT_ID_OFFSET), buffer.getLong(BOOT_ID_OFFSET + Long.BYTES));
        return new Header(bootId, buffer.getLong(PRIMARY_HASH_OFFSET),
                getText(buffer, PRIMARY_TEXT_LENGTH_OFFSET, PRIMARY_TEXT_OFFSET, PRIMARY_TEXT_CAPACITY));
    }

    /** Writes the shipper's record (the shipper only). */
    public void writeShipper(ShipperRecord r) {
        writeShipper(r.pid(), r.state(), r.leaseNs(), r.lastContactNs(), utf8(r.contact(), CONTACT_TEXT_CAPACITY), r.publishedNs());
    }

    /**
     * Writes the shipper's record from its fields, allocating nothing: the shipper writes it on the thread that heard
     * from a standby.
     *
     * @param contact who the last contact was, in UTF-8 ({@link #utf8}), at most {@link LeaseFileDescriptor#CONTACT_TEXT_CAPACITY} bytes
     */
    public synchronized void writeShipper(long pid, LeaseState state, long leaseNs, long lastContactNs, byte[] contact, long publishedNs) {
        long odd = beginWrite(SHIPPER_SEQUENCE_OFFSET);
        buffer.putLong(SHIPPER_PID_OFFSET, pid);
        buffer.putInt(LEASE_STATE_OFFSET, state.code());
        buffer.putLong(LEASE_NS_OFFSET, leaseNs);
        buffer.putLong(LAST_CONTACT_NS_OFFSET, lastContactNs);
        buffer.putLong(PUBLISHED_NS_OFFSET, publishedNs);
        putText(buffer, CONTACT_TEXT_LENGTH_OFFSET, CONTACT_TEXT_OFFSET, CONTACT_TEXT_CAPACITY, contact);
        buffer.putInt(SHIPPER_CRC_OFFSET, crc(crcView, SHIPPER_PID_OFFSET, SHIPPER_CRC_OFFSET));
        LONG.setRelease(buffer, SHIPPER_SEQUENCE_OFFSET, odd + 1);
    }

    /**
     * The shipper's record; {@link ShipperRecord#EMPTY} when no shipper wrote one yet.
     *
     * @throws LeaseFileException when it is torn (being written, or its writer died writing it) or fails its CRC
     */
    public synchronized ShipperRecord readShipper() {
        if (!copyRecord("shipper", SHIPPER_SEQUENCE_OFFSET, SHIPPER_CRC_OFFSET)) {
            return ShipperRecord.EMPTY;
        }
        return new ShipperRecord(copy.getLong(SHIPPER_PID_OFFSET), LeaseState.of(copy.getInt(LEASE_STATE_OFFSET)),
                copy.getLong(LEASE_NS_OFFSET), copy.getLong(LAST_CONTACT_NS_OFFSET),
                getText(copy, CONTACT_TEXT_LENGTH_OFFSET, CONTACT_TEXT_OFFSET, CONTACT_TEXT_CAPACITY), copy.getLong(PUBLISHED_NS_OFFSET));
    }

    /** Writes the guard's record (the guard only). */
    public synchronized void writeGuard(GuardRecord r) {
        long odd = beginWrite(GUARD_SEQUENCE_OFFSET);
        buffer.putLong(GUARD_PID_OFFSET, r.pid());
        buffer.putLong(CHECKED_NS_OFFSET, r.checkedNs());
        buffer.putInt(WATCHED_STATE_OFFSET, r.watchedState().code());
        buffer.putInt(FENCE_STATE_OFFSET, r.fence().code());
        buffer.putLong(WATCHED_LEASE_NS_OFFSET, r.watchedLeaseNs());
        buffer.putLong(WATCHED_CONTACT_NS_OFFSET, r.watchedContactNs());
        buffer.putLong(LAPSED_CONTACT_NS_OFFSET, r.lapsedContactNs());
        buffer.putLong(FENCE_STARTED_NS_OFFSET, r.fenceStartedNs());
        buffer.putLong(FENCE_DONE_NS_OFFSET, r.fenceDoneNs());
        buffer.putInt(ATTEMPTS_OFFSET, r.attempts());
        putText(buffer, ERROR_TEXT_LENGTH_OFFSET, ERROR_TEXT_OFFSET, ERROR_TEXT_CAPACITY, utf8(r.lastError(), ERROR_TEXT_CAPACITY));
        buffer.putInt(GUARD_CRC_OFFSET, crc(crcView, GUARD_PID_OFFSET, GUARD_CRC_OFFSET));
        LONG.setRelease(buffer, GUARD_SEQUENCE_OFFSET, odd + 1);
    }

    /**
     * The guard's record; {@link GuardRecord#EMPTY} when no guard wrote one yet.
     *
     * @throws LeaseFileException when it is torn (being written, or its writer died writing it) or fails its CRC
     */
    public synchronized GuardRecord readGuard() {
        if (!copyRecord("guard", GUARD_SEQUENCE_OFFSET, GUARD_CRC_OFFSET)) {
            return GuardRecord.EMPTY;
        }
        return new GuardRecord(copy.getLong(GUARD_PID_OFFSET), copy.getLong(CHECKED_NS_OFFSET),
                LeaseState.of(copy.getInt(WATCHED_STATE_OFFSET)), copy.getLong(WATCHED_LEASE_NS_OFFSET),
                copy.getLong(WATCHED_CONTACT_NS_OFFSET), FenceState.of(copy.getInt(FENCE_STATE_OFFSET)),
                copy.getLong(LAPSED_CONTACT_NS_OFFSET), copy.getLong(FENCE_STARTED_NS_OFFSET), copy.getLong(FENCE_DONE_NS_OFFSET),
                copy.getInt(ATTEMPTS_OFFSET), getText(copy, ERROR_TEXT_LENGTH_OFFSET, ERROR_TEXT_OFFSET, ERROR_TEXT_CAPACITY));
    }

    /** FNV-1a (64 bit) of the primary's text in UTF-8: the header keeps it whole even when the text is cut. */
    public static long primaryHash(String primary) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : primary.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** Makes the sequence odd before the fields change; a sequence left odd by a writer that died is passed over. */
    private long beginWrite(int sequenceOffset) {
        long sequence = buffer.getLong(sequenceOffset);
        long odd = (sequence & 1) == 0 ? sequence + 1 : sequence + 2;
        LONG.setVolatile(buffer, sequenceOffset, odd);
        VarHandle.storeStoreFence();
        return odd;
    }

    /**
     * Copies the record at {@code sequenceOffset} up to its CRC into {@link #copy} while its sequence is even and
     * unchanged, and checks its CRC.
     *
     * @return false when the record was never written (sequence 0)
     */
    private boolean copyRecord(String record, int sequenceOffset, int crcOffset) {
        long before = 0;
        for (int i = 0; i < TORN_RETRIES; i++) {
            before = (long) LONG.getAcquire(buffer, sequenceOffset);
            if (before == 0) {
                return false;
            }
            if ((before & 1) == 0) {
                copy.put(sequenceOffset, buffer, sequenceOffset, crcOffset + Integer.BYTES - sequenceOffset);
                VarHandle.acquireFence();
                if ((long) LONG.getAcquire(buffer, sequenceOffset) == before) {
                    int stored = copy.getInt(crcOffset);
                    int computed = crc(copyCrcView, sequenceOffset + Long.BYTES, crcOffset);
                    if (stored != computed) {
                        throw crcMismatch(record + " record (sequence " + before + ")", stored, computed);
                    }
                    return true;
                }
            }
            Thread.onSpinWait();
        }
        throw new LeaseFileException(name + ": the " + record + " record is torn (sequence " + before + (((before & 1) == 1)
                ? " odd: being written, or its writer died writing it)" : " moving: written over and over)"), true);
    }

    private LeaseFileException crcMismatch(String what, int stored, int computed) {
        return new LeaseFileException(name + ": the " + what + " fails its CRC (stored 0x" + Integer.toHexString(stored)
                + ", computed 0x" + Integer.toHexString(computed) + "): damaged, or written by something that is not rdmarepl");
    }

    /** CRC32C of {@code [start, end)} of the memory {@code view} (a view of its own) shows. */
    private int crc(ByteBuffer view, int start, int end) {
        view.clear().limit(end).position(start);
        crc.reset();
        crc.update(view);
        return (int) crc.getValue();
    }

    private static void putText(ByteBuffer to, int lengthOffset, int textOffset, int capacity, byte[] bytes) {
        if (bytes.length > capacity) {
            throw new IllegalArgumentException(bytes.length + " bytes of text where " + capacity + " fit");
        }
        to.putInt(lengthOffset, bytes.length);
        to.put(textOffset, bytes);
        for (int i = textOffset + bytes.length; i < textOffset + capacity; i++) {
            to.put(i, (byte) 0);
        }
    }

    private String getText(ByteBuffer from, int lengthOffset, int textOffset, int capacity) {
        int length = from.getInt(lengthOffset);
        if (length < 0 || length > capacity) {
            throw new LeaseFileException(name + ": a text at offset " + textOffset + " claims " + length + " bytes, at most "
                    + capacity + " fit");
        }
        byte[] bytes = new byte[length];
        from.get(textOffset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** {@code text} in UTF-8, cut at a character boundary to at most {@code capacity} bytes. */
    public static byte[] utf8(String text, int capacity) {
        String cut = text;
        byte[] bytes = cut.getBytes(StandardCharsets.UTF_8);
        while (bytes.length > capacity) {
            cut = cut.substring(0, cut.length() - 1);
            bytes = cut.getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }
}
