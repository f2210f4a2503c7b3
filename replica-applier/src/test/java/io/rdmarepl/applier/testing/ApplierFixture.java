package io.rdmarepl.applier.testing;

import io.rdmarepl.testsupport.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rdmarepl.applier.apply.Applier;
import io.rdmarepl.applier.apply.ApplierStatus;
import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.format.Lsn;
import io.rdmarepl.testsupport.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An applier on a real replica with a real shm ring, and a feeder playing the shipper. */
public final class ApplierFixture implements AutoCloseable {
    private final Applier applier;
    private final RingFeeder feeder;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private ApplierFixture(PostgresServer replica, String source, String... overrides) {
        List<String> settings = new ArrayList<>(List.of(
                "source.name", source,
                "ring.uri", Rings.newUri(source),
                "ring.capacity.bytes", "1048576",
                "replica.jdbc.url", replica.jdbcUrl("postgres"),
                "apply.retry.initial.ms", "50",
                "apply.retry.max.ms", "200",
                "admin.port", "0"));
        settings.addAll(List.of(overrides));
        ApplierConfig config = ApplierConfig.of(settings.toArray(String[]::new));
        this.applier = Applier.start(config, registry);
        this.feeder = new RingFeeder(config.ringUri());
    }

    public static ApplierFixture start(PostgresServer replica, String source, String... overrides) {
        return new ApplierFixture(replica, source, overrides);
    }

    public Applier applier() {
        return applier;
    }

    public RingFeeder feeder() {
        return feeder;
    }

    public SimpleMeterRegistry registry() {
        return registry;
    }

    public ApplierStatus status() {
        return applier.status();
    }

    /** Waits until the transaction committed at {@code commitLsn} is applied. */
    public ApplierStatus awaitApplied(long commitLsn) {
        return Await.until("applied LSN reaches " + Lsn.format(commitLsn), Duration.ofSeconds(15), this::status,
                s -> Lsn.compare(s.appliedLsn(), commitLsn) >= 0);
    }

    @Override
    public void close() {
        try {
            feeder.close();
        } finally {
            applier.close();
        }
    }
}
