package io.rdmarepl.shipper.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease file's layout ({@link LeaseFileDescriptor}): what is written reads back, and what is broken says so. */
class LeaseFileTest {
    private static final UUID BOOT = UUID.fromString("6f1c2c0e-8a46-4d0b-9a53-3b0f0d4c1e22");
    private final ByteBuffer memory = ByteBuffer.allocateDirect(LeaseFileDescriptor.FILE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final LeaseFile file = LeaseFile.wrap("/dev/shm/rdmarepl-lease-a", memory);

    @Test
    void shouldReadBackTheHeaderAndBothRecords() {
        file.initialise(BOOT, "db-a.example:5432/postgres");
        ShipperRecord shipper = new ShipperRecord(4711, LeaseState.ARMED, 2_000_000_000L, 123_456_789L, "standby b", 123_456_999L);
        GuardRecord guard = new GuardRecord(4712, 5_000L, LeaseState.ARMED, 2_000_000_000L, 123_456_789L, FenceState.RETRYING,
                100L, 200L, 0L, 3, "Connection refused");
        file.writeShipper(shipper);
        file.writeGuard(guard);

        assertThat(file.readHeader()).isEqualTo(new LeaseFile.Header(BOOT, LeaseFile.primaryHash("db-a.example:5432/postgres"),
                "db-a.example:5432/postgres"));
        assertThat(file.readShipper()).isEqualTo(shipper);
        assertThat(file.readGuard()).isEqualTo(guard);
        assertThat(memory.getLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET)).as("even: complete").isEqualTo(2);
    }

    @Test
    void shouldPlaceEveryFieldWhereTheDiagramSays() {
        assertThat(LeaseFileDescriptor.HEADER_CRC_OFFSET).isEqualTo(124);
        assertThat(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET).isEqualTo(128);
        assertThat(LeaseFileDescriptor.LAST_CONTACT_NS_OFFSET).isEqualTo(160);
        assertThat(LeaseFileDescriptor.CONTACT_TEXT_OFFSET).isEqualTo(176);
        assertThat(LeaseFileDescriptor.SHIPPER_CRC_OFFSET).isEqualTo(224);
        assertThat(LeaseFileDescriptor.GUARD_SEQUENCE_OFFSET).isEqualTo(256);
        assertThat(LeaseFileDescriptor.LAPSED_CONTACT_NS_OFFSET).isEqualTo(304);
        assertThat(LeaseFileDescriptor.ERROR_TEXT_OFFSET).isEqualTo(336);
        assertThat(LeaseFileDescriptor.GUARD_CRC_OFFSET).isEqualTo(464);
    }

    @Test
    void shouldReadRecordsNoOneWroteAsEmpty() {
        file.initialise(BOOT, "p:5432/postgres");
        assertThat(file.readShipper()).isEqualTo(ShipperRecord.EMPTY);
        assertThat(file.readGuard()).isEqualTo(GuardRecord.EMPTY);
    }

    @Test
    void shouldCallARecordWhoseSequenceStaysOddTornNamingFileRecordAndSequence() {
        file.initialise(BOOT, "p:5432/postgres");
        file.writeShipper(new ShipperRecord(1, LeaseState.ARMED, 1, 2, "coordinator", 3));
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, 3); // a writer killed halfway

        assertThatThrownBy(file::readShipper).isInstanceOf(LeaseFileException.class)
                .hasMessage("/dev/shm/rdmarepl-lease-a: the shipper record is torn (sequence 3 odd: being written, or its writer died writing it)")
                .matches(e -> ((LeaseFileException) e).torn(), "torn");
    }

    @Test
    void shouldWriteOverARecordItsWriterLeftTornAndEndEven() {
        file.initialise(BOOT, "p:5432/postgres");
        memory.putLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET, 5);
        ShipperRecord next = new ShipperRecord(2, LeaseState.NONE, 0, 0, "", 9);
        file.writeShipper(next);
        assertThat(memory.getLong(LeaseFileDescriptor.SHIPPER_SEQUENCE_OFFSET)).isEqualTo(8);
        assertThat(file.readShipper()).isEqualTo(next);
    }

    @Test
    void shouldRefuseARecordWhoseCrcDoesNotMatchNamingBothValues() {
        file.initialise(BOOT, "p:5432/postgres");
        file.writeGuard(new GuardRecord(9, 1, LeaseState.ARMED, 1, 1, FenceState.DONE, 1, 1, 1, 1, ""));
        memory.putLong(LeaseFileDescriptor.FENCE_DONE_NS_OFFSET, 42); // changed after the CRC

        assertThatThrownBy(file::readGuard).isInstanceOf(LeaseFileException.class)
                .hasMessageStartingWith("/dev/shm/rdmarepl-lease-a: the guard record (sequence 2) fails its CRC (stored 0x")
                .hasMessageEndingWith("damaged, or written by something that is not rdmarepl")
                .matches(e -> !((LeaseFileException) e).torn(), "not torn");
    }

    @Test
    void shouldRefuseAnotherLayoutVersionSayingWhatToDo() {
        file.initialise(BOOT, "p:5432/postgres");
        memory.putInt(LeaseFileDescriptor.LAYOUT_VERSION_OFFSET, 7);

        assertThatThrownBy(file::readHeader).isInstanceOf(LeaseFileException.class)
                .hasMessage("/dev/shm/rdmarepl-lease-a has lease file layout version 7, this build reads version 1: stop the shipper and"
                        + " lease guard of the other version, then delete the file");
    }

    @Test
    void shouldRefuseAFileThatIsNotALeaseFileAndCallAnUnfinishedOneTorn() {
        assertThatThrownBy(file::readHeader).matches(e -> ((LeaseFileException) e).torn(), "torn")
                .hasMessageContaining("is not initialised");
        memory.putLong(LeaseFileDescriptor.MAGIC_OFFSET, 0x1234L);
        assertThatThrownBy(file::readHeader).hasMessageStartingWith("/dev/shm/rdmarepl-lease-a is not a lease file: magic 0x1234");
    }

    @Test
    void shouldRefuseAHeaderWhoseCrcDoesNotMatch() {
        file.initialise(BOOT, "p:5432/postgres");
        memory.put(LeaseFileDescriptor.PRIMARY_TEXT_OFFSET, (byte) 'q');
        assertThatThrownBy(file::readHeader).hasMessageContaining("the header fails its CRC");
    }

    @Test
    void shouldCutTextsAtACharacterBoundaryAndKeepTheWholePrimaryInItsHash() {
        String primary = "a-very-long-host-name-of-a-primary-somewhere-in-a-data-centre.example.org:5432/the_database_of_record";
        file.initialise(BOOT, primary);
        assertThat(file.readHeader().primary()).hasSize(LeaseFileDescriptor.PRIMARY_TEXT_CAPACITY).isEqualTo(primary.substring(0, 80));
        assertThat(file.readHeader().primaryHash()).isEqualTo(LeaseFile.primaryHash(primary)).isNotEqualTo(LeaseFile.primaryHash(primary.substring(0, 80)));
        String contact = "standby ünïcödé-ünïcödé-ünïcödé-ünïcödé-ünïcödé";
        file.writeShipper(new ShipperRecord(1, LeaseState.ARMED, 1, 1, contact, 1));
        String cut = file.readShipper().contact();
        assertThat(contact).startsWith(cut);
        assertThat(cut.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isBetween(LeaseFileDescriptor.CONTACT_TEXT_CAPACITY - 1,
                LeaseFileDescriptor.CONTACT_TEXT_CAPACITY);
    }

    @Test
    void shouldMapAFileOnlyItsOwnerMayWriteAndRefuseOneOthersMayWriteALinkOrAShortOne(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("rdmarepl-lease-a");
        LeaseFile mapped = LeaseFile.map(path, true);
        mapped.initialise(BOOT, "p:5432/postgres");
        assertThat(Files.size(path)).isEqualTo(LeaseFileDescriptor.FILE_LENGTH);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-------");
        assertThat(LeaseFile.map(path, false).readHeader().primary()).isEqualTo("p:5432/postgres");

        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> LeaseFile.map(path, false)).isInstanceOf(LeaseFileException.class)
                .hasMessage(path + " may be written by others (mode rw-rw-rw-): whoever may write the lease file decides when the"
                        + " primary is fenced; chmod 600 it");
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
        Path link = dir.resolve("link");
        Files.createSymbolicLink(link, path);
        assertThatThrownBy(() -> LeaseFile.map(link, false)).as("a link someone put in its place is not followed")
                .isInstanceOf(java.io.IOException.class);

        Path other = dir.resolve("other");
        Files.write(other, new byte[100]);
        assertThatThrownBy(() -> LeaseFile.map(other, false)).isInstanceOf(LeaseFileException.class)
                .hasMessage(other + " is 100 bytes long, a lease file 512 (a file of something else, or one its creator did not finish)");
    }
}
