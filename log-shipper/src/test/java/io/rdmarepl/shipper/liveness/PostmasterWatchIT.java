package io.rdmarepl.shipper.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.testsupport.Await;
import io.rdmarepl.testsupport.Durability;
import io.rdmarepl.testsupport.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The postmaster behind a session, found and watched through /proc; its SIGKILL seen before its backends notice. */
class PostmasterWatchIT {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void findsThePostmasterOfAConnectionAndSeesItsDeath() throws Exception {
        try (PostgresServer primary = PostgresServer.primary(Durability.FAST);
             Connection connection = primary.connect("postgres")) {
            PostmasterWatch.Found found;
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT pg_backend_pid(), pg_postmaster_start_time()")) {
                rs.next();
                found = PostmasterWatch.find(rs.getLong(1), rs.getTimestamp(2).toInstant());
            }
            assertThat(found.whyNot()).isNull();
            PostmasterWatch watch = found.watch();
            assertThat(watch.pid()).isEqualTo(primary.pid());
            assertThat(watch.check()).isFalse();
            assertThat(watch.exited()).isFalse();
            assertThat(watch.exit()).isNull();

            ProcessHandle.of(primary.pid()).orElseThrow().destroyForcibly();
            Await.until("the SIGKILLed postmaster seen to exit", Duration.ofSeconds(10), watch::check);
            assertThat(watch.exited()).as("the SIGKILLed postmaster is seen to exit").isTrue();
            assertThat(watch.exit()).startsWith("process " + primary.pid() + " ");
            assertThat(watch.check()).as("sticky").isTrue();
        }
    }
}
