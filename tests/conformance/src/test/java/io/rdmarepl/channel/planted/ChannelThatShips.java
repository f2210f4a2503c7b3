package io.rdmarepl.channel.planted;

/** Planted for ArchitectureRulesFailTest: rdma-channel calling up into the roles. Never in production. */
public class ChannelThatShips {
    io.rdmarepl.shipper.Shipper shipper;
    io.rdmarepl.applier.apply.Applier applier;
    io.rdmarepl.coordinator.machine.Coordinator coordinator;
    io.rdmarepl.client.FailoverDataSource client;
    io.rdmarepl.cli.RdmareplCommand command;
}
