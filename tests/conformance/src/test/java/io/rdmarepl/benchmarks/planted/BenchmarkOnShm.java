package io.rdmarepl.benchmarks.planted;

/** Planted for ArchitectureRulesFailTest: a benchmark picking a transport directly, which is allowed. Never in production. */
public class BenchmarkOnShm {
    io.rdmarepl.channel.shm.ShmWriterEnd shm;
}
