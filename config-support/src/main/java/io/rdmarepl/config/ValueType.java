package io.rdmarepl.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a key's text becomes a typed value, and the rules that value must keep. Immutable; {@link #where} returns a
 * copy with one more rule. Never corrects a value: a value that breaks a rule is refused with the rule's sentence.
 *
 * @param <T> the typed value
 */
public final class ValueType<T> {
    private final String values;
    private final Function<String, T> parser;
    private final Function<? super T, String> shown;
    private final List<Rule<T>> rules;

    private record Rule<T>(Predicate<? super T> holds, String sentence) {
    }

    private ValueType(String values, Function<String, T> parser, Function<? super T, String> shown, List<Rule<T>> rules) {
        this.values = values;
        this.parser = parser;
        this.shown = shown;
        this.rules = List.copyOf(rules);
    }

    /**
     * @param values what the documentation's tables say is allowed, e.g. {@code 1..65535}
     * @param parser text to value; throws an {@link IllegalArgumentException} whose message is the rule broken
     */
    public static <T> ValueType<T> of(String values, Function<String, T> parser) {
        return new ValueType<>(values, parser, String::valueOf, List.of());
    }

    /** This type printing its values with {@code shown} in problems (a duration as {@code 500 ms}). */
    public ValueType<T> shownAs(Function<? super T, String> shown) {
        return new ValueType<>(values, parser, shown, rules);
    }

    /** This type with one more rule: a value for which {@code holds} is false is refused with {@code sentence}. */
    public ValueType<T> where(Predicate<? super T> holds, String sentence) {
        List<Rule<T>> more = new ArrayList<>(rules);
        more.add(new Rule<>(holds, sentence));
        return new ValueType<>(values, parser, shown, more);
    }

    /** This type documented as allowing {@code values}. */
    public ValueType<T> documentedAs(String values) {
        return new ValueType<>(values, parser, shown, rules);
    }

    /**
     * @return the value {@code text} stands for
     * @throws IllegalArgumentException whose message is the rule {@code text} breaks, e.g. {@code must be true or false}
     */
    public T parse(String text) {
        T value = parser.apply(Objects.requireNonNull(text, "text"));
        String broken = check(value);
        if (broken != null) {
            throw new IllegalArgumentException(broken);
        }
        return value;
    }

    /**
     * @return the first rule {@code value} breaks, or null when it keeps them all. A null value breaks the first rule
     *         (a type without rules takes null: "none").
     */
    public String check(T value) {
        for (Rule<T> rule : rules) {
            if (value == null || !rule.holds().test(value)) {
                return rule.sentence();
            }
        }
        return null;
    }

    /** {@code value} as a problem shows it. */
    public String show(T value) {
        return value == null ? "" : shown.apply(value);
    }

    /** What is allowed, for the documentation's tables. */
    public String values() {
        return values;
    }
}
