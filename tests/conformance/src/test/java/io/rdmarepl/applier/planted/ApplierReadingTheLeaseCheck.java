package io.rdmarepl.applier.planted;

/** Planted for SourceRulesFailTest: the applier taking a shipper constant, which javac copies in. Never in production. */
public class ApplierReadingTheLeaseCheck {
    static final long CHECK_MS = io.rdmarepl.shipper.config.ShipperConfig.LEASE_CHECK_MS;
}
