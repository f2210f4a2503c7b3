package io.rdmarepl.coordinator.planted;

/**
 * Planted for ArchitectureRulesFailTest and SourceRulesFailTest: the coordinator calling into the hot path, beside
 * the things it may use (config-support, the format's Lsn and the roles' control contract). Never in production.
 */
public class CoordinatorInTheHotPath {
    io.rdmarepl.channel.ring.RingWriter ring;
    io.rdmarepl.format.codec.RecordDecoder decoder;
    io.rdmarepl.format.record.ChangeRecord record;
    io.rdmarepl.shipper.Shipper shipper;
    io.rdmarepl.applier.apply.Applier applier;
    io.rdmarepl.cli.RdmareplCommand command;
    com.lmax.disruptor.RingBuffer<?> disruptor;
    com.ibm.disni.verbs.IbvMr memoryRegion;
    io.debezium.engine.DebeziumEngine<?> engine;
    io.rdmarepl.format.Lsn allowedLsn;
    io.rdmarepl.config.ConfigReader allowedConfig;
    io.rdmarepl.control.EpochRequest allowedContract;
}
