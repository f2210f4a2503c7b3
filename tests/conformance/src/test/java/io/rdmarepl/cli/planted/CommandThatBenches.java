package io.rdmarepl.cli.planted;

/** Planted for ArchitectureRulesFailTest: the production command reaching into the harness. Never in production. */
public class CommandThatBenches {
    io.rdmarepl.harness.bench.BenchCommand bench;
    io.rdmarepl.harness.demo.DemoCommand demo;
    io.rdmarepl.testsupport.PostgresServer server;
    org.openjdk.jmh.annotations.Benchmark benchmark;
}
