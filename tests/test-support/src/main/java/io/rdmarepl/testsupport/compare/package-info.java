/**
 * Replica = primary, checked so that it can fail: {@link io.rdmarepl.testsupport.compare.ReplicaComparison} compares
 * every table (type-exact text of every column, bound by name; rows as multisets) and sequence of two servers and
 * returns a {@link io.rdmarepl.testsupport.compare.ComparisonReport} naming each
 * {@link io.rdmarepl.testsupport.compare.Difference}. The demo, the benchmarks and the end-to-end tests all use it.
 */
package io.rdmarepl.testsupport.compare;
