package io.rdmarepl.harness.bench.lag;

/**
 * The background load beside the probe: none, a total rate in transactions per second shared by the
 * clients, or the clients as fast as they can ({@code max}).
 *
 * @param perSecond transactions per second, all clients together (RATE only)
 */
record Load(Kind kind, int perSecond) {
    static final int MAX_RATE = 100_000;

    enum Kind { NONE, RATE, MAX }

    /**
     * @throws IllegalArgumentException naming the value and the rule
     */
    static Load parse(String text) {
        String value = text == null ? "" : text.strip();
        if (value.equalsIgnoreCase("none")) {
            return new Load(Kind.NONE, 0);
        }
        if (value.equalsIgnoreCase("max")) {
            return new Load(Kind.MAX, 0);
        }
        try {
            int rate = Integer.parseInt(value);
            if (rate >= 1 && rate <= MAX_RATE) {
                return new Load(Kind.RATE, rate);
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("--load " + text + ": must be none, max or transactions per second (1.." + MAX_RATE + ")");
    }

    boolean none() {
        return kind == Kind.NONE;
    }

    /** Pause between one client's transactions, 0 for flat out. */
    long clientIntervalNs(int clients) {
        return kind == Kind.RATE ? 1_000_000_000L * clients / perSecond : 0;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "none";
            case MAX -> "max";
            case RATE -> Integer.toString(perSecond);
        };
    }
}
