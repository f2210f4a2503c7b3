/**
 * Client-side histories of acknowledged writes ({@link io.rdmarepl.testsupport.history.WriteHistory}) and what they
 * prove ({@link io.rdmarepl.testsupport.history.HistoryCheck}): never two primaries, nothing acknowledged lost. The
 * partition tests and benchmarks judge a trial by them, not by the system's view of itself.
 */
package io.rdmarepl.testsupport.history;
