package io.rdmarepl.conformance.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Every module's production sources held to {@link SourceRules}. */
class SourceRulesTest {
    private static final List<JavaSource> PRODUCTION = JavaSource.readAll(SourceTrees.production());

    @Test
    void everyModulesSourcesAreRead() {
        Set<String> roots = new TreeSet<>();
        for (JavaSource source : PRODUCTION) {
            String[] parts = source.packageName().split("\\.");
            roots.add(parts.length < 3 ? source.packageName() : parts[0] + "." + parts[1] + "." + parts[2]);
        }
        assertThat(roots).as("package roots with sources").containsExactlyInAnyOrderElementsOf(ArchitectureTest.OWNERS.keySet());
    }

    @Test
    void productionSourcesNameOnlyWhatTheModuleRulesAllow() {
        SoftAssertions softly = new SoftAssertions();
        for (SourceRule rule : SourceRules.ALL) {
            softly.assertThat(rule.checked(PRODUCTION)).as("source files '%s' holds to", rule).isPositive();
            softly.assertThat(rule.violations(PRODUCTION)).as(rule.description()).isEmpty();
        }
        softly.assertAll();
    }
}
