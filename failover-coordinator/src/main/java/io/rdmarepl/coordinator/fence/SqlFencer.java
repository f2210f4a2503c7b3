package io.rdmarepl.coordinator.fence;

import io.rdmarepl.control.FenceRequest;
import io.rdmarepl.control.ShipperRoutes;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.MemberConfig;
import io.rdmarepl.coordinator.roles.RoleClient;
import io.rdmarepl.coordinator.roles.RoleException;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes an old primary refuse writes before anything is promoted. Reachable: {@code default_transaction_read_only}
 * on (ALTER SYSTEM + reload, waited for until it took) and then every client session ended, so no session that could
 * still write survives, not even one that ran {@code SET default_transaction_read_only = off}. Unreachable: the
 * configured {@code fence.command} (a STONITH hook), whose failure stops the failover; without one, nothing here
 * confirms the fence: the epoch refuses the old shipper's frames and clients follow the new topology, but clients
 * that still reach the old primary are stopped only by its shipper's lease, which the promotion then waits out
 * ({@link LeaseWait}). Its shipper is told to stop in any case.
 */
public final class SqlFencer implements Fencer {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SqlFencer.class);
    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(2);
    private final CoordinatorConfig config;
    private final RoleClient roles;
    private final MemberSql sql;

    public SqlFencer(CoordinatorConfig config, RoleClient roles) {
        this.config = config;
        this.roles = roles;
        this.sql = new MemberSql(config);
    }

    /**
     * @return what was done, and whether it is certain
     * @throws FenceException when the member is unreachable and the fence command failed or timed out
     */
    @Override
    public Fenced fence(MemberConfig member) {
        try {
            int ended = makeReadOnly(member);
            return new Fenced(member.name() + " made read-only, " + ended + " client session(s) ended" + stopShipper(member), true);
        } catch (SQLException e) {
            return fenceUnreachable(member, member.name() + " unreachable (" + firstLine(e.getMessage()) + ")");
        }
    }

    /**
     * Fences a member whose shipper saw its postmaster exit, without trying SQL first: an exiting postmaster starts
     * no session, but its port still accepts connections until its teardown ends (15 to 40 ms on a busy host, longer
     * when the teardown is starved), and that wait would sit on the failover's path for nothing. Otherwise as for an
     * unreachable member: {@code fence.command} if configured, its shipper told to stop; a server restarted later is
     * made read-only by the {@code FencedMemberGuard} when it answers.
     *
     * <p>This fence counts as confirmed, with no fence.command and no lease to wait for. The shipper read from
     * {@code /proc} that the postmaster is exiting ({@code PF_EXITING}, set the moment SIGKILL lands), a zombie, gone or
     * replaced, which no stall looks like, and a probe failed since, so no restarted server answers. A dead postmaster
     * starts no session, and the backends it leaves exit at their next wait for a client (PostgreSQL's postmaster-death
     * check): at most a statement already running when it died may still commit, the same in-flight window that
     * ending a session in the SQL fence leaves. What this does not cover: a supervisor restarting the server on that
     * host (writable again until the guard fences it, within a second of its answering; clients that follow the
     * topology are elsewhere by then), which only {@code fence.command} rules out.
     *
     * @param exit what the shipper said of the exit
     * @throws FenceException when the fence command failed or timed out
     */
    @Override
    public Fenced fenceExited(MemberConfig member, String exit) {
        String why = member.name() + "'s postmaster exited (its shipper saw: " + exit + ")";
        if (config.fenceCommand().isEmpty()) {
            return new Fenced(why + ": it takes no writes" + stopShipper(member), true);
        }
        return new Fenced(why + "; " + runFenceCommand(member) + stopShipper(member), true);
    }

    private Fenced fenceUnreachable(MemberConfig member, String why) {
        if (config.fenceCommand().isEmpty()) {
            return new Fenced(why + "; no fence.command configured: not confirmed, its lease must run out" + stopShipper(member), false);
        }
        return new Fenced(why + "; " + runFenceCommand(member) + stopShipper(member), true);
    }

    /**
     * A fenced member that answers again (restarted after the failover) is made read-only again if it is not.
     *
     * @return what was done, or null when the member is unreachable or already read-only
     */
    @Override
    public String refence(MemberConfig member) {
        try (Connection connection = sql.open(member, "fence");
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SHOW default_transaction_read_only")) {
            rs.next();
            if ("on".equals(rs.getString(1))) {
                return null;
            }
        } catch (SQLException unreachable) {
            return null;
        }
        try {
            int ended = makeReadOnly(member);
            return "fenced member " + member.name() + " answered writable again: made read-only, " + ended + " client session(s) ended";
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * A switchover's first step: the member refuses client writes and its client sessions end, but its shipper
     * keeps shipping, so the standby can catch up with everything committed before.
     *
     * @return how many client sessions were ended
     */
    @Override
    public int fenceClients(MemberConfig member) throws SQLException {
        return makeReadOnly(member);
    }

    /**
     * Lifts the server-wide read-only {@link #fence} set, on a member that is about to take writes again (a
     * switchover called off) or that an applier now keeps read-only for clients (a rejoin).
     */
    @Override
    public void unfence(MemberConfig member) throws SQLException {
        try (Connection connection = sql.open(member, "fence");
             Statement statement = connection.createStatement()) {
            statement.execute("ALTER SYSTEM RESET default_transaction_read_only");
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    /**
     * Stops the member's shipper and waits for its answer: in a switchover the shipper is alive, and it must
     * have stopped before its standby is promoted.
     *
     * @throws RoleException when the shipper does not answer
     */
    @Override
    public void stopShipperNow(MemberConfig member) {
        if (member.shipperAdmin().isPresent()) {
            roles.post(member.shipperAdmin().get(), ShipperRoutes.FENCE, new FenceRequest("switchover: the standby caught up").toJson(),
                    Duration.ofSeconds(10));
        }
    }

    /**
     * Read-only by default, then every other client session ended: only once this session sees the new default did
     * the postmaster re-read its configuration, so no session starts writable after the ending; and ending them all
     * catches those that set {@code default_transaction_read_only = off} themselves.
     */
    private int makeReadOnly(MemberConfig member) throws SQLException {
        try (Connection connection = sql.open(member, "fence");
             Statement statement = connection.createStatement()) {
            statement.execute("ALTER SYSTEM SET default_transaction_read_only = on");
            statement.execute("SELECT pg_reload_conf()");
            long deadlineNs = System.nanoTime() + RELOAD_TIMEOUT.toNanos();
            while (!"on".equals(single(statement, "SELECT current_setting('default_transaction_read_only')"))) {
                if (System.nanoTime() - deadlineNs > 0) {
                    throw new SQLException("the server did not take the read-only default within " + RELOAD_TIMEOUT.toMillis() + " ms");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            return Integer.parseInt(single(statement, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    + "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"));
        }
    }

    private static String single(Statement statement, String query) throws SQLException {
        try (ResultSet rs = statement.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private String runFenceCommand(MemberConfig member) {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", config.fenceCommand()).redirectErrorStream(true);
        builder.environment().put("RDMAREPL_MEMBER", member.name());
        builder.environment().put("RDMAREPL_JDBC_URL", member.jdbcUrl());
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            Duration timeout = config.fenceCommandTimeout();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new FenceException("fence.command for " + member.name() + " did not finish within " + timeout.toMillis()
                        + " ms: not promoting (fix the command or fence " + member.name() + " by hand, then `rdmarepl failover --force`)");
            }
            String output = new String(process.getInputStream().readAllBytes()).strip();
            if (process.exitValue() != 0) {
                throw new FenceException("fence.command for " + member.name() + " exited " + process.exitValue()
                        + (output.isEmpty() ? "" : " (" + firstLine(output) + ")") + ": not promoting");
            }
            return "fence.command fenced it";
        } catch (IOException e) {
            throw new FenceException("fence.command for " + member.name() + " could not run: " + e.getMessage() + ": not promoting");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FenceException("interrupted while fencing " + member.name());
        }
    }

    /**
     * Tells the shipper to stop, without waiting for its answer: the failover must not wait on a shipper that
     * died with its primary, and the epoch refuses whatever a live one writes after the promotion.
     */
    private String stopShipper(MemberConfig member) {
        if (member.shipperAdmin().isEmpty()) {
            return "";
        }
        Thread stop = new Thread(() -> {
            try {
                roles.post(member.shipperAdmin().get(), ShipperRoutes.FENCE, new FenceRequest("fenced by the coordinator").toJson(),
                        Duration.ofSeconds(2));
                LOG.info("shipper of {} stopped", member.name());
            } catch (RoleException e) {
                LOG.info("shipper of {} did not take the fence ({}): the epoch refuses its frames", member.name(), e.getMessage());
            }
        }, "rdmarepl-fence-shipper");
        stop.setDaemon(true);
        stop.start();
        return "; its shipper told to stop";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "no message";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
