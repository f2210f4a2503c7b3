package io.rdmarepl.applier.apply;

/**
 * An INSERT shape as {@code COPY table (columns) FROM STDIN} ({@link CopyRows}): the same columns in the same order.
 *
 * @param upsert the INSERT it stands for overwrites a row with the same key ({@code ON CONFLICT}), which COPY cannot:
 *               a batch that meets one goes as statements instead
 */
record CopyInsert(String sql, boolean upsert) {
}
