package io.rdmarepl.cli.planted;

/** Planted for ArchitectureRulesFailTest: the production command reaching into the harness. Never in production. */
public class CommandThatBenches {
    io.rdmarepl.cli.bench.BenchCommand bench;
    io.rdmarepl.testsupport.PostgresServer server;
}
