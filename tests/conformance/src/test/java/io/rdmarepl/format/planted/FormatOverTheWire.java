package io.rdmarepl.format.planted;

/**
 * Planted for ArchitectureRulesFailTest and SourceRulesFailTest: log-format reaching for transports and databases.
 * Never in production.
 */
public class FormatOverTheWire {
    io.rdmarepl.channel.ring.RingWriter ring;
    com.ibm.disni.verbs.IbvMr memoryRegion;
    java.net.Socket socket;
    java.sql.Connection connection;
    javax.sql.DataSource dataSource;
    org.postgresql.PGConnection pgConnection;
    com.zaxxer.hikari.HikariDataSource pool;
}
