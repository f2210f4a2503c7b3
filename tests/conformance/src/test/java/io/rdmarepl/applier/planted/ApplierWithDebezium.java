package io.rdmarepl.applier.planted;

/** Planted for ArchitectureRulesFailTest: Debezium outside the shipper. Never in production. */
public class ApplierWithDebezium {
    io.debezium.engine.DebeziumEngine<?> engine;
}
