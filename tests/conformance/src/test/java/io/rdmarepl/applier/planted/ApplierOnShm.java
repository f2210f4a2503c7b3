package io.rdmarepl.applier.planted;

/** Planted for ArchitectureRulesFailTest: the applier naming concrete transports instead of a URI. Never in production. */
public class ApplierOnShm {
    io.rdmarepl.channel.shm.ShmReaderEnd shm;
    io.rdmarepl.channel.verbs.VerbsReaderEnd verbs;
}
