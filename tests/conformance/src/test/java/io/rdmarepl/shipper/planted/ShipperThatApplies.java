package io.rdmarepl.shipper.planted;

/**
 * Planted for ArchitectureRulesFailTest and SourceRulesFailTest: the shipper importing the applier (and Debezium,
 * which it may). Never in production.
 */
public class ShipperThatApplies {
    io.rdmarepl.applier.apply.Applier applier;
    io.debezium.engine.DebeziumEngine<?> engine;
}
