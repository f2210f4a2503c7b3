package io.rdmarepl.coordinator.fence;

import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Short-lived JDBC sessions on a member for the coordinator's control statements (fencing, markers), with
 * {@code database.user} and tight timeouts: a control step must fail fast on a dead server, never hang.
 */
public final class MemberSql {
    private final CoordinatorConfig config;

    public MemberSql(CoordinatorConfig config) {
        this.config = config;
    }

    /** @param purpose shows in pg_stat_activity.application_name as rdmarepl-coordinator-PURPOSE */
    public Connection open(MemberConfig member, String purpose) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", config.databaseUser());
        props.setProperty("password", config.databasePassword());
        props.setProperty("connectTimeout", "1");
        props.setProperty("socketTimeout", "5");
        props.setProperty("ApplicationName", "rdmarepl-coordinator-" + purpose);
        return DriverManager.getConnection(member.jdbcUrl(), props);
    }
}
