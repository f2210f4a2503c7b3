package io.rdmarepl.format;

/**
 * The values that stand for {@code infinity} and {@code -infinity} in dates and timestamps. They are
 * PostgreSQL's own sentinels ({@code DT_NOEND}/{@code DT_NOBEGIN}, {@code DATEVAL_NOEND}/{@code DATEVAL_NOBEGIN}),
 * so the extremes of the range stay distinct from every finite value PostgreSQL accepts.
 */
public final class PgInfinity {
    /** {@code timestamp[tz] 'infinity'} in microseconds since the Unix epoch. */
    public static final long TIMESTAMP_POSITIVE = Long.MAX_VALUE;
    /** {@code timestamp[tz] '-infinity'} in microseconds since the Unix epoch. */
    public static final long TIMESTAMP_NEGATIVE = Long.MIN_VALUE;
    /** {@code date 'infinity'} in days since the Unix epoch. */
    public static final int DATE_POSITIVE = Integer.MAX_VALUE;
    /** {@code date '-infinity'} in days since the Unix epoch. */
    public static final int DATE_NEGATIVE = Integer.MIN_VALUE;

    private PgInfinity() {
    }
}
