package io.rdmarepl.applier.planted;

/**
 * Planted for ArchitectureRulesFailTest and SourceRulesFailTest: the applier importing the shipper. Never in
 * production.
 */
public class ApplierThatShips {
    io.rdmarepl.shipper.Shipper shipper;
}
