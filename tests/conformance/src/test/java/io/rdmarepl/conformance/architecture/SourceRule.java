package io.rdmarepl.conformance.architecture;

import com.tngtech.archunit.core.domain.PackageMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A module rule read off the sources ({@link JavaSource}): no source file in {@code origins} (but those in
 * {@code exemptOrigins}) names a type in {@code forbidden} (but those in {@code allowed}). Packages are written as
 * ArchUnit's package identifiers ({@code io.rdmarepl.format..}), the same ones {@link ArchitectureRules} uses.
 */
record SourceRule(String description, List<String> origins, List<String> exemptOrigins, List<String> forbidden,
                  List<String> allowed) {

    static SourceRule sourcesIn(String... origins) {
        return new SourceRule("", List.of(origins), List.of(), List.of(), List.of());
    }

    SourceRule except(String... exempt) {
        return new SourceRule(description, origins, List.of(exempt), forbidden, allowed);
    }

    SourceRule mayNotName(String... packages) {
        return new SourceRule(description, origins, exemptOrigins, List.of(packages), allowed);
    }

    SourceRule butMay(String... packages) {
        return new SourceRule(description, origins, exemptOrigins, forbidden, List.of(packages));
    }

    SourceRule as(String text) {
        return new SourceRule(text, origins, exemptOrigins, forbidden, allowed);
    }

    /** How many of {@code sources} the rule holds to: none means it checks nothing, which is a failure too. */
    long checked(Collection<JavaSource> sources) {
        return sources.stream().filter(this::applies).count();
    }

    /** Each forbidden name, as "{@code <type> names <reference> (<file>)}". */
    List<String> violations(Collection<JavaSource> sources) {
        List<String> violations = new ArrayList<>();
        for (JavaSource source : sources) {
            if (!applies(source)) {
                continue;
            }
            for (String reference : source.references()) {
                String target = JavaSource.packageOf(reference);
                if (matchesAny(forbidden, target) && !matchesAny(allowed, target)) {
                    violations.add(source.typeName() + " names " + reference + " (" + source.file() + ")");
                }
            }
        }
        return violations;
    }

    @Override
    public String toString() {
        return description;
    }

    private boolean applies(JavaSource source) {
        return matchesAny(origins, source.packageName()) && !matchesAny(exemptOrigins, source.packageName());
    }

    private static boolean matchesAny(List<String> identifiers, String packageName) {
        return identifiers.stream().anyMatch(id -> PackageMatcher.of(id).matches(packageName));
    }

    static String[] concat(String[]... parts) {
        return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
    }
}
