/**
 * Hosts without more machines: {@link io.rdmarepl.testsupport.net.Network} makes each
 * {@link io.rdmarepl.testsupport.net.NetHost} a Linux network namespace on a bridge, with real faults between them:
 * {@link io.rdmarepl.testsupport.net.Partitions} (cuts, one-way cuts, healing) and
 * {@link io.rdmarepl.testsupport.net.Impairments} (random loss; netem delay where the kernel has it). SIGSTOP and
 * SIGCONT of a process are {@link io.rdmarepl.testsupport.Stall}'s. A PostgreSQL server runs on a host with
 * {@link io.rdmarepl.testsupport.PostgresServerBuilder#on}; any other process with
 * {@link io.rdmarepl.testsupport.net.NetHost#processBuilder}. Without root or CAP_NET_ADMIN the tests that use it are
 * skipped with one line ({@link io.rdmarepl.testsupport.net.NetworkNamespaces#assumeAvailable()}).
 */
package io.rdmarepl.testsupport.net;
