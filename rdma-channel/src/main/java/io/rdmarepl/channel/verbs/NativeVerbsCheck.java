package io.rdmarepl.channel.verbs;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What DiSNI's native provider needs on this host, checked before DiSNI is touched, so a missing
 * piece is named instead of surfacing as an {@code UnsatisfiedLinkError} or a silent failure.
 */
public final class NativeVerbsCheck {
    private static final List<String> SYSTEM_LIBRARY_DIRS = List.of("/lib", "/lib64", "/usr/lib", "/usr/lib64",
            "/usr/local/lib", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu");

    private NativeVerbsCheck() {
    }

    /** @return every missing requirement, each with how to fix it; empty when the host looks ready */
    public static List<String> problems() {
        List<String> problems = new ArrayList<>();
        Set<String> javaPath = paths(System.getProperty("java.library.path", ""));
        if (find(javaPath, System.mapLibraryName("disni")) == null) {
            problems.add("libdisni is not on java.library.path (" + String.join(File.pathSeparator, javaPath)
                    + "): build it from DiSNI's source (libdisni: ./autoprepare.sh && ./configure --with-jdk=$JAVA_HOME && make install)"
                    + " and pass -Djava.library.path=<its directory>");
        }
        Set<String> systemPath = new LinkedHashSet<>(paths(System.getenv().getOrDefault("LD_LIBRARY_PATH", "")));
        systemPath.addAll(SYSTEM_LIBRARY_DIRS);
        systemPath.addAll(javaPath);
        if (find(systemPath, "libibverbs.so.1") == null) {
            problems.add("libibverbs (rdma-core) is not installed: apt-get install ibverbs-providers libibverbs1 / dnf install rdma-core libibverbs");
        }
        if (find(systemPath, "librdmacm.so.1") == null) {
            problems.add("librdmacm (rdma-core) is not installed: apt-get install librdmacm1 / dnf install librdmacm");
        }
        if (!hasVerbsDevice()) {
            problems.add("no RDMA device: /dev/infiniband/uverbs* is missing (no RDMA NIC, driver not loaded, or the device "
                    + "is not passed into this container); use softrdma:// to run the same code path without one");
        }
        String memlock = memlockLimit();
        if (memlock != null && !memlock.equals("unlimited")) {
            problems.add("locked-memory limit is " + memlock + " bytes: memory registration pins the ring, run with "
                    + "'ulimit -l unlimited' (or LimitMEMLOCK=infinity in the systemd unit)");
        }
        if (!Object.class.getModule().isExported("sun.nio.ch", NativeVerbsCheck.class.getModule())) {
            problems.add("java.base does not export sun.nio.ch to DiSNI: add --add-exports java.base/sun.nio.ch=ALL-UNNAMED"
                    + " to the java command line");
        }
        if (Runtime.version().feature() >= 22 && ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .noneMatch(a -> a.startsWith("--enable-native-access"))) {
            problems.add("add --enable-native-access=ALL-UNNAMED to the java command line (JDK "
                    + Runtime.version().feature() + " restricts native access)");
        }
        return problems;
    }

    /** @throws IllegalStateException listing every missing requirement */
    public static void require(String uri) {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("rdma:// (DiSNI native verbs) cannot run on this host for " + uri + ":\n  - "
                    + String.join("\n  - ", problems) + "\n(use softrdma:// for the software RDMA emulation, or shm:// on one host)");
        }
    }

    private static boolean hasVerbsDevice() {
        Path dir = Path.of("/dev/infiniband");
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "uverbs*")) {
            return entries.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the soft locked-memory limit in bytes, "unlimited", or null when unknown */
    static String memlockLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max locked memory")) {
                    String[] fields = line.substring("Max locked memory".length()).trim().split("\\s+");
                    return fields[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static Set<String> paths(String path) {
        Set<String> dirs = new LinkedHashSet<>();
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                dirs.add(dir);
            }
        }
        return dirs;
    }

    private static Path find(Set<String> dirs, String file) {
        for (String dir : dirs) {
            Path candidate = Path.of(dir, file);
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
