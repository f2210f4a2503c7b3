package io.rdmarepl.applier.role;

import io.rdmarepl.applier.apply.ApplierControl;
import io.rdmarepl.applier.config.ApplierConfig;

/** Starts one applier for a configuration: {@code Applier::start} in production, a fake in tests. */
@FunctionalInterface
public interface ApplierStarter {

    /**
     * @throws RuntimeException naming the replica or ring that could not be reached or created
     */
    ApplierControl start(ApplierConfig config);
}
