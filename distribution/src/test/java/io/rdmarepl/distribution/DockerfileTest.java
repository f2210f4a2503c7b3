package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmarepl.distribution.Dockerfile.Instruction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rdmarepl image: a Java 17 runtime, the jar Maven built, a non-root user and a health check on /health. */
class DockerfileTest {
    private final Dockerfile dockerfile = Dockerfile.load();

    @Test
    void shouldRunEveryStageThatEndsAsAnImageAsANonRootUser() {
        List<Instruction> users = dockerfile.all("USER");
        assertThat(users).as("USER instructions").isNotEmpty();
        assertThat(isRoot(users.get(users.size() - 1).arguments())).as("the last USER").isFalse();
        String stage = null;
        String user = null;
        for (Instruction instruction : dockerfile.instructions()) {
            if (instruction.keyword().equals("FROM")) {
                assertThat(user == null || !isRoot(user)).as("stage %s ends as root", stage).isTrue();
                stage = instruction.arguments();
                user = null;
            } else if (instruction.keyword().equals("USER")) {
                user = instruction.arguments();
            }
        }
        assertThat(user == null || !isRoot(user)).as("the default stage %s ends as root", stage).isTrue();
        String lastFrom = dockerfile.all("FROM").get(dockerfile.all("FROM").size() - 1).arguments();
        assertThat(lastFrom).as("the default target builds on the stage that sets the user").startsWith("base ");
    }

    @Test
    void shouldCheckHealthOnTheRolesAdminPort() {
        List<Instruction> checks = dockerfile.all("HEALTHCHECK");
        assertThat(checks).hasSize(1);
        assertThat(checks.get(0).arguments()).contains("CMD").contains("/health").contains("${RDMAREPL_ADMIN_PORT}");
        assertThat(dockerfile.all("ENV")).anySatisfy(env -> assertThat(env.arguments()).contains("RDMAREPL_ADMIN_PORT="));
    }

    @Test
    void shouldPackageTheJarMavenBuiltOnAJava17Runtime() {
        assertThat(dockerfile.all("ARG")).anySatisfy(arg -> assertThat(arg.arguments()).isEqualTo("JRE_IMAGE=eclipse-temurin:17-jre"));
        assertThat(dockerfile.all("FROM").get(0).arguments()).startsWith("${JRE_IMAGE} AS base");
        assertThat(dockerfile.all("COPY")).extracting(Instruction::arguments)
                .contains("cli/target/rdmarepl.jar /opt/rdmarepl/lib/rdmarepl.jar", "packaging/bin/rdmarepl /opt/rdmarepl/bin/rdmarepl");
        assertThat(dockerfile.all("ENTRYPOINT")).extracting(Instruction::arguments).containsExactly("[\"/opt/rdmarepl/bin/rdmarepl\"]");
        assertThat(dockerfile.stages()).contains("base", "rdma", "runtime", "bench");
    }

    /** The harness jar (demo, bench: embedded PostgreSQL, JUnit) goes into the bench target only, never a role's image. */
    @Test
    void shouldCopyTheHarnessJarIntoTheBenchTargetOnly() {
        String stage = null;
        List<String> stagesWithTheHarness = new java.util.ArrayList<>();
        for (Instruction instruction : dockerfile.instructions()) {
            if (instruction.keyword().equals("FROM")) {
                stage = instruction.arguments();
            } else if (instruction.keyword().equals("COPY") && instruction.arguments().contains("rdmarepl-harness.jar")) {
                stagesWithTheHarness.add(stage);
                assertThat(instruction.arguments()).isEqualTo(
                        "harness/target/rdmarepl-harness.jar /opt/rdmarepl/lib/rdmarepl-harness.jar");
            }
        }
        assertThat(stagesWithTheHarness).containsExactly("base AS bench");
    }

    @Test
    void shouldLetEveryCopiedFileThroughDockerignore() {
        List<String> rules = RepositoryFiles.read(RepositoryFiles.ROOT.resolve(".dockerignore")).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertThat(rules.get(0)).as("everything else stays out of the build context").isEqualTo("*");
        for (Instruction copy : dockerfile.all("COPY")) {
            if (copy.arguments().startsWith("--from")) {
                continue;
            }
            String source = copy.arguments().split("\\s+")[0];
            assertThat(rules).as("COPY %s", source).contains("!" + source);
            assertThat(RepositoryFiles.ROOT.resolve(source).toFile().exists() || source.startsWith("cli/target/")
                    || source.startsWith("harness/target/"))
                    .as("%s exists (the jar once Maven built it)", source).isTrue();
        }
    }

    private static boolean isRoot(String user) {
        String name = user.split(":")[0];
        return name.equals("root") || name.equals("0");
    }
}
