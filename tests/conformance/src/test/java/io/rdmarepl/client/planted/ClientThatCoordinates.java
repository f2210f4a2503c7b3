package io.rdmarepl.client.planted;

/**
 * Planted for ArchitectureRulesFailTest: failover-client importing another module, beside the one it may use
 * (config-support). Never in production.
 */
public class ClientThatCoordinates {
    io.rdmarepl.coordinator.machine.Coordinator coordinator;
    io.rdmarepl.format.Lsn lsn;
    io.rdmarepl.config.ConfigReader allowedConfig;
}
