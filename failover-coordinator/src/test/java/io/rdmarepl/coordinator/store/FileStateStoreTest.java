package io.rdmarepl.coordinator.store;

import static io.rdmarepl.coordinator.store.StateStore.NOTHING_STORED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmarepl.coordinator.state.ClusterState;
import io.rdmarepl.testsupport.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FileStateStoreTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadNothingStoredFromAMissingFile() {
        try (FileStateStore store = FileStateStore.open(dir.resolve("main.json"))) {
            assertThat(store.read()).isEqualTo(new Versioned<ClusterState>(null, NOTHING_STORED));
            assertThat(Files.exists(dir.resolve("main.json"))).isFalse();
        }
    }

    @Test
    void shouldRoundTripStateAndVersionThroughTheFile() {
        ClusterState first = States.initial("main");
        ClusterState second = States.promotionBy("coord-a", first);
        Path file = dir.resolve("main.json");

        try (FileStateStore store = FileStateStore.open(file)) {
            assertThat(store.compareAndSet(NOTHING_STORED, first)).isZero();
            assertThat(store.compareAndSet(0, second)).isEqualTo(1);
        }
        try (FileStateStore reopened = FileStateStore.open(file)) {
            assertThat(reopened.read()).isEqualTo(new Versioned<>(second, 1));
        }
    }

    @Test
    void shouldLetALazyWriteReachTheFileSoonAndStillCompareVersions() throws Exception {
        ClusterState first = States.initial("main");
        ClusterState second = States.promotionBy("coord-a", first);
        Path file = dir.resolve("main.json");

        try (FileStateStore store = FileStateStore.open(file)) {
            assertThat(store.compareAndSet(NOTHING_STORED, first, Durability.LAZY)).isZero();
            assertThat(store.read()).as("the leader reads what it stored").isEqualTo(new Versioned<>(first, 0));
            try (FileStateStore other = FileStateStore.open(file)) {
                awaitFile(other, 0);
                assertThat(other.read()).isEqualTo(new Versioned<>(first, 0));
            }
            assertThat(store.compareAndSet(NOTHING_STORED, second, Durability.LAZY)).isEqualTo(NOTHING_STORED);
            assertThat(store.compareAndSet(0, second, Durability.LAZY)).isEqualTo(1);
        }
        // close() wrote what was pending before it let go of the lock
        try (FileStateStore reopened = FileStateStore.open(file)) {
            assertThat(reopened.read()).isEqualTo(new Versioned<>(second, 1));
        }
        assertThat(AtomicFileWriter.tempFileOf(file)).doesNotExist();
    }

    @Test
    void shouldNeverExposeAHalfWrittenFileNorMoveItBackwardsUnderLazyAndSyncedWrites() throws Exception {
        Path file = dir.resolve("main.json");
        int writes = 300;
        try (FileStateStore writer = FileStateStore.open(file);
             FileStateStore reader = FileStateStore.open(file)) {
            writer.compareAndSet(NOTHING_STORED, States.initial("main"));
            AtomicBoolean writing = new AtomicBoolean(true);
            CompletableFuture<List<Long>> versionsSeen = versionsReadWhile(reader, writing);

            Versioned<ClusterState> current = writer.read();
            for (int i = 0; i < writes; i++) {
                ClusterState next = States.promotionBy("writer", current.value());
                // mostly lazy, as a failover's way stations, with a synced one (its epoch) now and then
                Durability durability = i % 7 == 3 ? Durability.SYNCED : Durability.LAZY;
                current = new Versioned<>(next, writer.compareAndSet(current.version(), next, durability));
            }
            writing.set(false);

            assertThat(versionsSeen.get(10, TimeUnit.SECONDS)).isNotEmpty().isSorted();
            assertThat(writer.read()).isEqualTo(current);
            awaitFile(reader, writes);
            assertThat(reader.read()).isEqualTo(current);
            assertThat(current.value().epoch()).isEqualTo(1 + writes);
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("main.json", "main.json.lock");
            }
        }
    }

    @Test
    void shouldMakeGoodALazyWriteThatFailedWithTheNextWrite() throws Exception {
        Path file = dir.resolve("main.json");
        ClusterState initial = States.initial("main");
        ClusterState promoted = States.promotionBy("coord-a", initial);
        ClusterState again = States.promotionBy("coord-a", promoted);
        try (FileStateStore store = FileStateStore.open(file);
             FileStateStore follower = FileStateStore.open(file)) {
            store.compareAndSet(NOTHING_STORED, initial);
            // a directory where the temp file goes: the replace fails, as on a full or read-only disk
            Path temp = AtomicFileWriter.tempFileOf(file);
            Files.createDirectory(temp);

            assertThat(store.compareAndSet(0, promoted, Durability.LAZY)).isEqualTo(1);
            // the failed replace removes its temp file: gone means tried
            Await.until("the lazy write tried (its temp file gone)", Duration.ofSeconds(5), () -> !Files.exists(temp));
            assertThat(follower.read()).as("the file still holds version 0").isEqualTo(new Versioned<>(initial, 0));
            assertThat(store.read()).as("the leader goes on from what it stored").isEqualTo(new Versioned<>(promoted, 1));

            assertThat(store.compareAndSet(1, again, Durability.LAZY)).isEqualTo(2);
            awaitFile(follower, 2);
            assertThat(follower.read()).isEqualTo(new Versioned<>(again, 2));
        }
    }

    /** The versions {@code reader} finds in the file, read over and over on another thread while {@code writing}. */
    private static CompletableFuture<List<Long>> versionsReadWhile(FileStateStore reader, AtomicBoolean writing) {
        return CompletableFuture.supplyAsync(() -> {
            List<Long> seen = new ArrayList<>();
            while (writing.get()) {
                seen.add(reader.read().version()); // throws if it ever parses half a document
            }
            return seen;
        });
    }

    /** Until {@code reader} (not the leader) finds {@code version} in the file: lazy writes land a little later. */
    private static void awaitFile(FileStateStore reader, long version) {
        Await.until("version " + version + " in the file", Duration.ofSeconds(5), () -> reader.read().version(), v -> v == version);
    }

    @Test
    void shouldRefuseAWriteFromAStaleVersion() {
        try (FileStateStore store = FileStateStore.open(dir.resolve("main.json"))) {
            ClusterState initial = States.initial("main");
            store.compareAndSet(NOTHING_STORED, initial);
            ClusterState promoted = States.promotionBy("coord-a", initial);
            store.compareAndSet(0, promoted);

            assertThat(store.compareAndSet(0, States.promotionBy("coord-b", initial))).isEqualTo(NOTHING_STORED);
            assertThat(store.compareAndSet(NOTHING_STORED, initial)).isEqualTo(NOTHING_STORED);
            assertThat(store.read()).isEqualTo(new Versioned<>(promoted, 1));
        }
    }

    @Test
    void shouldCompareALeadersWriteAgainstTheVersionItWroteNotAgainstTheFile() throws Exception {
        Path file = dir.resolve("main.json");
        ClusterState initial = States.initial("main");
        ClusterState promoted = States.promotionBy("coord-a", initial);
        try (FileStateStore store = FileStateStore.open(file)) {
            store.compareAndSet(NOTHING_STORED, initial);
            // only the lock holder writes the file: a leader that read it back before every write would choke here
            Files.writeString(file, "not the state");

            assertThat(store.compareAndSet(NOTHING_STORED, promoted, Durability.LAZY)).isEqualTo(NOTHING_STORED);
            assertThat(store.compareAndSet(0, promoted, Durability.LAZY)).isEqualTo(1);
            assertThat(store.read()).isEqualTo(new Versioned<>(promoted, 1));
        }
    }

    @Test
    void shouldNotLeadNorWriteWhileAnotherStoreHoldsTheLock() {
        Path file = dir.resolve("main.json");
        try (FileStateStore first = FileStateStore.open(file);
             FileStateStore second = FileStateStore.open(file)) {
            first.compareAndSet(NOTHING_STORED, States.initial("main"));

            assertThat(first.isLeader()).isTrue();
            assertThat(second.isLeader()).isFalse();
            assertThat(second.read().version()).isZero();
            assertThatThrownBy(() -> second.compareAndSet(0, States.promotionBy("second", States.initial("main"))))
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageStartingWith("state file " + file + " is locked by another coordinator")
                    .hasMessageContaining(file + ".lock");
            assertThat(first.read().version()).isZero();
            assertThat(second.describe()).isEqualTo("file " + file + " (follower, locked by another store in this process (pid "
                    + ProcessHandle.current().pid() + "))");
            assertThat(first.describe()).isEqualTo("file " + file + " (leader)");
        }
    }

    @Test
    void shouldTakeOverTheLockOnceTheLeaderCloses() {
        Path file = dir.resolve("main.json");
        FileStateStore first = FileStateStore.open(file);
        try (FileStateStore second = FileStateStore.open(file)) {
            first.compareAndSet(NOTHING_STORED, States.initial("main"));
            first.close();

            assertThat(first.isLeader()).isFalse();
            assertThat(second.isLeader()).isTrue();
            assertThat(second.compareAndSet(0, States.promotionBy("second", States.initial("main")))).isEqualTo(1);
            assertThatThrownBy(() -> first.compareAndSet(1, States.initial("main")))
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageContaining("closed");
        }
    }

    @Test
    void shouldOverwriteATempFileLeftByACrash() throws IOException {
        Path file = dir.resolve("main.json");
        Files.writeString(file.resolveSibling("main.json.tmp"), "{\"version\": 3, \"sta");
        try (FileStateStore store = FileStateStore.open(file)) {
            assertThat(store.compareAndSet(NOTHING_STORED, States.initial("main"))).isZero();

            assertThat(store.read()).isEqualTo(new Versioned<>(States.initial("main"), 0));
            assertThat(Files.exists(file.resolveSibling("main.json.tmp"))).isFalse();
        }
    }

    @Test
    void shouldNameThePathOfACorruptFile() throws IOException {
        Path file = dir.resolve("main.json");
        Files.write(file, "{\"version\": 3, \"state\": {\"cluster\": \"ma".getBytes(StandardCharsets.UTF_8));
        try (FileStateStore store = FileStateStore.open(file)) {
            assertThatThrownBy(store::read)
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageStartingWith("state file " + file + " is corrupt: ");
            assertThatThrownBy(() -> store.compareAndSet(3, States.initial("main")))
                    .isInstanceOf(StateStoreException.class)
                    .hasMessageStartingWith("state file " + file + " is corrupt: ");
            assertThat(Files.readString(file)).as("a corrupt file is left for the operator").startsWith("{\"version\": 3");
        }
    }

    @Test
    void shouldNameAMissingDirectory() {
        Path file = dir.resolve("no-such-dir").resolve("main.json");

        assertThatThrownBy(() -> FileStateStore.open(file))
                .isInstanceOf(StateStoreException.class)
                .hasMessage("cannot open state file " + file + ": directory " + file.getParent() + " does not exist");
    }
}
