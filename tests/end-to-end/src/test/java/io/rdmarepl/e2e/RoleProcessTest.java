package io.rdmarepl.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.channel.ChannelSecurity;
import io.rdmarepl.testsupport.cluster.RoleProcess;
import org.junit.jupiter.api.Test;

/** test-support starts the roles without importing them: what it names must be what they read. */
class RoleProcessTest {
    @Test
    void theChannelSecretGoesWhereTheRolesReadIt() {
        assertThat(RoleProcess.CHANNEL_SECRET_ENV).isEqualTo(ChannelSecurity.SECRET_ENV);
    }
}
