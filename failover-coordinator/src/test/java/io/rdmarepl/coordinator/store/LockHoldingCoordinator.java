package io.rdmarepl.coordinator.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A second coordinator process for {@link FileStateStoreLockIT}: opens the store on {@code args[0]}, prints
 * {@code leader=<true|false>} and holds it until its stdin closes or it is killed.
 */
public final class LockHoldingCoordinator {
    private LockHoldingCoordinator() {
    }

    public static void main(String[] args) throws IOException {
        try (FileStateStore store = FileStateStore.open(Path.of(args[0]))) {
            System.out.println("leader=" + store.isLeader());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the lock until the test closes our stdin
            }
        }
    }
}
