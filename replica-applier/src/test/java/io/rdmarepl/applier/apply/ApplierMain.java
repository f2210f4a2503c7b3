package io.rdmarepl.applier.apply;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.applier.config.ApplierConfig;
import java.nio.file.Path;

/** An applier in its own JVM, for tests that kill it: {@code ApplierMain applier.properties}. Runs until killed. */
public final class ApplierMain {
    private ApplierMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Applier applier = Applier.start(ApplierConfig.load(Path.of(args[0])), new SimpleMeterRegistry());
        System.out.println("applying " + applier.config().ringUri());
        System.out.flush();
        Thread.currentThread().join();
    }
}
