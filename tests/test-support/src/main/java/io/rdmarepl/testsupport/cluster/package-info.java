/**
 * A cluster on hosts of its own: {@link io.rdmarepl.testsupport.cluster.HostCluster} runs PostgreSQL a and b, their
 * shippers and appliers and the coordinators as separate processes ({@link io.rdmarepl.testsupport.cluster.RoleProcess},
 * kept running by {@link io.rdmarepl.testsupport.cluster.SupervisedRole}), each member on a network-namespace host of
 * a {@link io.rdmarepl.testsupport.net.Network}, optionally on CPUs of its own. The end-to-end partition tests and
 * {@code rdmarepl bench failover --layout hosts} use it. The roles are started from the class path of the JVM that
 * starts them, which must hold the {@code cli} module.
 */
package io.rdmarepl.testsupport.cluster;
