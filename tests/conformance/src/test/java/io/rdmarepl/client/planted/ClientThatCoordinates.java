package io.rdmarepl.client.planted;

/** Planted for ArchitectureRulesFailTest: failover-client importing another module. Never in production. */
public class ClientThatCoordinates {
    io.rdmarepl.coordinator.machine.Coordinator coordinator;
    io.rdmarepl.format.Lsn lsn;
}
