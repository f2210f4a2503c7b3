package io.rdmarepl.harness.bench.lag;

/**
 * One probe row as the replica holds it.
 *
 * @param sentAtUs {@code sent_at}: {@code clock_timestamp()} on the primary, microseconds since the epoch
 * @param lagUs    {@code applied_at - sent_at}: the replica's trigger clock minus the primary's (one host, one clock)
 */
public record ProbeSample(long id, long sentAtUs, long lagUs) {
}
