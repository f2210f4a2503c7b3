package io.rdmarepl.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostsLayoutTest {
    @Test
    void readsTheKernelsCpuLists() {
        assertThat(HostsLayout.parseCpuList("0-1")).containsExactly(0, 1);
        assertThat(HostsLayout.parseCpuList("3")).containsExactly(3);
        assertThat(HostsLayout.parseCpuList("0,2-4,7")).containsExactly(0, 2, 3, 4, 7);
    }
}
