/**
 * Issue 21's partition and fault trials against a {@link io.rdmarepl.testsupport.cluster.HostCluster}: the scenario
 * runners ({@link io.rdmarepl.trials.PartitionTrials}, {@link io.rdmarepl.trials.MinorityCoordinatorTrials}), the
 * application writing through the failover-aware DataSource ({@link io.rdmarepl.trials.Applications}) and what a trial
 * showed ({@link io.rdmarepl.trials.TrialResult}), judged by test-support's client-side history
 * ({@link io.rdmarepl.testsupport.history.HistoryCheck}). The end-to-end tests assert on the results;
 * {@code rdmarepl bench partition} reports them.
 */
package io.rdmarepl.trials;
