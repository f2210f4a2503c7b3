package io.rdmarepl.format.record;

import java.util.List;

/** The values of one row (or key), in the relation's attribute order. */
public record Tuple(List<Value> values) {
    public Tuple {
        values = List.copyOf(values);
    }

    public static Tuple of(Value... values) {
        return new Tuple(List.of(values));
    }
}
