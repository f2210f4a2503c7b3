package io.rdmarepl.shipper.planted;

import io.rdmarepl.applier.position.AppliedPositionStore;

/**
 * Planted for SourceRulesFailTest: the shipper taking the applier's table name, a constant javac copies in. A comment
 * or a text naming io.rdmarepl.applier.apply.Applier is no reference. Never in production.
 */
public class ShipperSkippingTheAppliersTable {
    // skips what io.rdmarepl.applier.apply.Applier writes
    static final String SKIPPED = AppliedPositionStore.TABLE;
    static final String MESSAGE = "written by io.rdmarepl.applier.apply.Applier";
    static final char QUOTE = '"';
    static final String BLOCK = """
            io.rdmarepl.applier.apply.Applier "quoted" \""" still inside
            """;
}
