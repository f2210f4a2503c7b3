package io.rdmarepl.shipper.planted;

/** Planted for ArchitectureRulesFailTest: a role carrying the harness and a test library. Never in production. */
public class ShipperWithTheHarness {
    io.rdmarepl.testsupport.PostgresServer server;
    io.rdmarepl.harness.bench.BenchCommand bench;
    org.assertj.core.api.Assertions assertions;
}
