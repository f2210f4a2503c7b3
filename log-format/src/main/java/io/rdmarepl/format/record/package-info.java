/**
 * Allocating, immutable value records of every change record and column value, compared by
 * {@code equals}: for tests, the control plane and tools. The hot path uses the flyweights of
 * {@link io.rdmarepl.format.codec} instead; {@link io.rdmarepl.format.record.ChangeRecords} bridges the two.
 */
package io.rdmarepl.format.record;
