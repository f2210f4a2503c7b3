package io.rdmarepl.channel.planted;

/** Planted for ArchitectureRulesFailTest: rdma-channel knowing databases, Debezium and the format. Never in production. */
public class ChannelThatDecodes {
    java.sql.Connection connection;
    org.postgresql.PGConnection pgConnection;
    com.zaxxer.hikari.HikariDataSource pool;
    io.debezium.engine.DebeziumEngine<?> engine;
    org.apache.kafka.connect.source.SourceRecord record;
    io.rdmarepl.format.Lsn lsn;
}
