package io.rdmarepl.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive {@code mvn package} builds ({@code distribution/target/rdmarepl-VERSION.tar.gz}): launcher, jar,
 * every example config, the systemd units; and the launcher runs the jar.
 */
class DistributionArchiveIT {
    private static final Path ARCHIVE = Path.of(System.getProperty("rdmarepl.distribution.archive", "target/missing.tar.gz"));
    private static final String BASE = System.getProperty("rdmarepl.distribution.name", "rdmarepl") + "/";
    private static final Path JAR = RepositoryFiles.ROOT.resolve("cli/target/rdmarepl.jar");

    private static Map<String, TarArchive.Entry> entries;

    @BeforeAll
    static void readArchive() throws IOException {
        assertThat(Files.isRegularFile(ARCHIVE)).as("%s (built in the package phase)", ARCHIVE).isTrue();
        entries = TarArchive.entries(ARCHIVE);
    }

    @Test
    void shouldHoldTheLauncherAndTheJar() throws IOException {
        assertThat(entries).containsKeys(BASE + "bin/rdmarepl", BASE + "lib/rdmarepl.jar", BASE + "README.md",
                BASE + "docs/README.md", BASE + "docs/getting-started.md", BASE + "docs/operations.md",
                BASE + "docs/configuration.md", BASE + "docs/configuration/shipper.md", BASE + "docs/configuration/applier.md",
                BASE + "docs/configuration/coordinator.md", BASE + "docs/configuration/client.md");
        assertThat(entries.get(BASE + "bin/rdmarepl").mode() & 0777).as("bin/rdmarepl mode").isEqualTo(0755);
        assertThat(entries.get(BASE + "lib/rdmarepl.jar").size()).as("the shaded jar").isEqualTo(Files.size(JAR));
    }

    /** The product jar only: the harness (demo, bench, embedded PostgreSQL, JUnit) is never shipped. */
    @Test
    void shouldShipTheProductJarWithoutTheHarness() throws IOException {
        assertThat(entries.keySet()).filteredOn(name -> name.startsWith(BASE + "lib/")).containsExactly(BASE + "lib/rdmarepl.jar");
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(JAR.toFile())) {
            assertThat(jar.stream().map(java.util.zip.ZipEntry::getName))
                    .as("classes of the harness, test-support, embedded PostgreSQL or a test library in %s", JAR)
                    .noneMatch(name -> name.startsWith("io/rdmarepl/harness/") || name.startsWith("io/rdmarepl/testsupport/")
                            || name.startsWith("io/rdmarepl/benchmarks/") || name.startsWith("io/zonky/")
                            || name.startsWith("org/junit/") || name.startsWith("org/assertj/"))
                    .contains("io/rdmarepl/cli/RdmareplCommand.class", "io/rdmarepl/cli/coordinate/CoordinatorEndpoint.class");
        }
    }

    @Test
    void shouldHoldEveryExampleConfig() {
        for (Path config : RepositoryFiles.exampleConfigs()) {
            String name = BASE + RepositoryFiles.relative(config);
            assertThat(entries).as("archive entries").containsKey(name);
            assertThat(entries.get(name).mode() & 0007).as("%s is not world-readable (passwords, tokens)", name).isZero();
        }
    }

    @Test
    void shouldHoldTheSystemdUnitOfEveryRole() {
        for (Role role : Role.values()) {
            String unit = BASE + "systemd/rdmarepl-" + role.name().toLowerCase(java.util.Locale.ROOT) + ".service";
            assertThat(entries).as("archive entries").containsKey(unit);
        }
        assertThat(entries).as("archive entries").containsKey(BASE + "systemd/rdmarepl-lease-guard.service");
    }

    @Test
    void shouldRunOnlyTheCoordinatorWithTheC1CompilerAndLetRdmareplJavaOptsOverrideIt(@TempDir Path home) throws Exception {
        Path launcher = installLauncher(home);
        try {
            assertThat(tieredStopAtLevel(launcher, "coordinate", "")).as("coordinate").isEqualTo("1");
            assertThat(tieredStopAtLevel(launcher, "apply", "")).as("apply").isEqualTo("4");
            assertThat(tieredStopAtLevel(launcher, "ship", "")).as("ship").isEqualTo("4");
            assertThat(tieredStopAtLevel(launcher, "coordinate", "-XX:TieredStopAtLevel=4")).as("coordinate, overridden").isEqualTo("4");
        } finally {
            Files.delete(home.resolve("lib/rdmarepl.jar")); // the link, not the jar
        }
    }

    /** Installs the launcher and a link to the jar under {@code home}; returns the launcher. */
    private static Path installLauncher(Path home) throws Exception {
        Path launcher = home.resolve("bin/rdmarepl");
        Files.createDirectories(launcher.getParent());
        Files.copy(RepositoryFiles.ROOT.resolve("packaging/bin/rdmarepl"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(home.resolve("lib"));
        Files.createSymbolicLink(home.resolve("lib/rdmarepl.jar"), JAR);
        return launcher;
    }

    /** The JIT's TieredStopAtLevel the launcher runs {@code role} with ({@code --help}: nothing starts). */
    private static String tieredStopAtLevel(Path launcher, String role, String javaOpts) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), role, "--help").redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("RDMAREPL_JAVA_OPTS", (javaOpts + " -XX:+PrintFlagsFinal").trim());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("rdmarepl " + role + " --help within 60 s").isTrue();
        java.util.regex.Matcher flag = java.util.regex.Pattern.compile("\\bTieredStopAtLevel\\s+=\\s+(\\d+)").matcher(output);
        assertThat(flag.find()).as("TieredStopAtLevel in -XX:+PrintFlagsFinal's output").isTrue();
        return flag.group(1);
    }

    @Test
    void shouldRunTheJarThroughTheLauncher(@TempDir Path home) throws Exception {
        Path launcher = home.resolve("bin/rdmarepl");
        Files.createDirectories(launcher.getParent());
        Files.copy(RepositoryFiles.ROOT.resolve("packaging/bin/rdmarepl"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(home.resolve("lib"));
        Files.createSymbolicLink(home.resolve("lib/rdmarepl.jar"), JAR);
        Path link = home.resolve("on-path/rdmarepl");
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, launcher); // as /usr/local/bin/rdmarepl -> /opt/rdmarepl/bin/rdmarepl
        ProcessBuilder builder = new ProcessBuilder(link.toString(), "--version").redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        try {
            Process process = builder.start();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("rdmarepl --version within 60 s").isTrue();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(output).isZero();
            assertThat(output).contains("rdmarepl").contains("Java");
        } finally {
            Files.delete(link);
            Files.delete(home.resolve("lib/rdmarepl.jar")); // the link, not the jar
        }
    }
}
