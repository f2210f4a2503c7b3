package io.rdmarepl.harness.bench.cpu;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time spent by the processes that replicate, read from /proc (PostgreSQL processes, by their process title) and
 * from this JVM (rdmarepl's threads, which the benches run in-process), so that a catch-up or a copy can be reported
 * as CPU milliseconds for each part of the path. Unlike elapsed time, that figure hardly moves when something else on
 * the host takes CPU. Linux only; elsewhere the account is empty.
 */
public final class CpuAccount {
    /** PostgreSQL's own housekeeping on either server meanwhile: shown, since it takes CPU, but not in the total. */
    public static final String BACKGROUND = "postgresql background (not in total)";
    private static final double TICK_NS = 1e9 / 100; // USER_HZ is 100 on every Linux the bench runs on
    private final Map<String, Long> processNs; // pid -> CPU ns
    private final Map<String, String> processTitles; // pid -> title (its activity part changes; its database does not)
    private final Map<Long, Long> threadNs;
    private final Map<Long, String> threadNames;

    /** "tid part" -> CPU ns of this JVM's own threads: its JIT compilers and its garbage collector. */
    private final Map<String, Long> jvmNs;

    private CpuAccount(Map<String, Long> processNs, Map<String, String> processTitles, Map<Long, Long> threadNs,
                       Map<Long, String> threadNames,
                       Map<String, Long> jvmNs) {
        this.processNs = processNs;
        this.processTitles = processTitles;
        this.threadNs = threadNs;
        this.threadNames = threadNames;
        this.jvmNs = jvmNs;
    }

    public static CpuAccount now() {
        Map<String, Long> processes = new HashMap<>();
        Map<String, String> titles = new HashMap<>();
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : proc) {
                try {
                    String title = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ').trim();
                    if (!title.startsWith("postgres: ")) {
                        continue;
                    }
                    processes.put(p.getFileName().toString(), cpuNs(p));
                    titles.put(p.getFileName().toString(), title);
                } catch (IOException | RuntimeException gone) {
                    // the process ended meanwhile
                }
            }
        } catch (IOException noProc) {
            return new CpuAccount(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("rdmarepl-")) {
                long ns = threads.getThreadCpuTime(info.getThreadId());
                if (ns >= 0) {
                    cpu.put(info.getThreadId(), ns);
                    names.put(info.getThreadId(), info.getThreadName());
                }
            }
        }
        return new CpuAccount(processes, titles, cpu, names, jvmThreads());
    }

    /**
     * This account with {@code newer}'s readings over its own, keeping what only this one saw: sampled now and then
     * during a run, it keeps the CPU of a process or thread that ended before the run did (PostgreSQL's table sync
     * workers and their walsenders, a copy's sessions and threads).
     */
    public CpuAccount updatedBy(CpuAccount newer) {
        Map<String, Long> processes = new HashMap<>(processNs);
        processes.putAll(newer.processNs);
        Map<String, String> titles = new HashMap<>(processTitles);
        titles.putAll(newer.processTitles);
        Map<Long, Long> threads = new HashMap<>(threadNs);
        threads.putAll(newer.threadNs);
        Map<Long, String> names = new HashMap<>(threadNames);
        names.putAll(newer.threadNames);
        Map<String, Long> jvm = new HashMap<>(jvmNs);
        jvm.putAll(newer.jvmNs);
        return new CpuAccount(processes, titles, threads, names, jvm);
    }

    /**
     * The JVM's compiler and collector threads, which ThreadMXBean does not list: a sidecar's JVM pays for them too,
     * and a catch-up that finds code still to compile, or that allocates, shows here.
     */
    private static Map<String, Long> jvmThreads() {
        Map<String, Long> jvm = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    String part = comm.contains("CompilerThre") ? "jvm compiler"
                            : comm.startsWith("GC ") || comm.startsWith("G1 ") ? "jvm gc" : null;
                    if (part == null) {
                        continue;
                    }
                    jvm.put(task.getFileName() + " " + part, cpuNs(task));
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException noProc) {
            return Map.of();
        }
        return jvm;
    }

    /** User plus system CPU of the process or thread whose /proc directory is {@code dir}. */
    private static long cpuNs(Path dir) throws IOException {
        String stat = Files.readString(dir.resolve("stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
        return (long) (ticks * TICK_NS);
    }

    /**
     * CPU milliseconds per 1,000 transactions spent from this account to {@code later}, by part ({@link #millis}).
     */
    public Map<String, Double> perThousand(CpuAccount later, long transactions, String replicaDatabase) {
        return scaled(parts(later, replicaDatabase, null), transactions <= 0 ? 0 : 1000.0 / transactions / 1e6);
    }

    /**
     * CPU milliseconds spent from this account to {@code later}, by part: the primary's walsenders, PostgreSQL's apply
     * and table sync workers, the backends serving {@code replicaDatabase} (rdmarepl's applier sessions) and, when not
     * null, {@code primaryDatabase}, rdmarepl's threads by name, this JVM's compiler and collector threads, and the
     * total of these.
     */
    public Map<String, Double> millis(CpuAccount later, String replicaDatabase, String primaryDatabase) {
        return scaled(parts(later, replicaDatabase, primaryDatabase), 1e-6);
    }

    private Map<String, Long> parts(CpuAccount later, String replicaDatabase, String primaryDatabase) {
        Map<String, Long> parts = new TreeMap<>();
        later.processNs.forEach((pid, ns) -> {
            long spent = ns - processNs.getOrDefault(pid, 0L);
            String title = later.processTitles.get(pid);
            String part = title.contains("walsender") ? "walsender"
                    : title.contains("logical replication apply worker") ? "postgresql apply worker"
                    : title.contains("logical replication tablesync worker") ? "postgresql table sync worker"
                    : title.contains(" " + replicaDatabase + " ") ? "replica backends"
                    : primaryDatabase != null && title.contains(" " + primaryDatabase + " ") ? "primary backends"
                    : title.contains("autovacuum") || title.contains("checkpointer") || title.contains("background writer")
                            || title.contains("walwriter") ? BACKGROUND : null;
            if (part != null && spent > 0) {
                parts.merge(part, spent, Long::sum);
            }
        });
        later.jvmNs.forEach((key, ns) -> {
            long spent = ns - jvmNs.getOrDefault(key, 0L);
            if (spent > 0) {
                parts.merge(key.substring(key.indexOf(' ') + 1), spent, Long::sum);
            }
        });
        later.threadNs.forEach((id, ns) -> {
            long spent = ns - threadNs.getOrDefault(id, 0L);
            if (spent > 0) {
                parts.merge("thread " + later.threadNames.get(id).replaceAll("-\\d+$", ""), spent, Long::sum);
            }
        });
        return parts;
    }

    private static Map<String, Double> scaled(Map<String, Long> parts, double scale) {
        Map<String, Double> out = new LinkedHashMap<>();
        long total = 0;
        for (Map.Entry<String, Long> e : parts.entrySet()) {
            double ms = e.getValue() * scale;
            if (ms >= 0.05) {
                out.put(e.getKey(), Math.round(ms * 100) / 100.0);
            }
            if (!e.getKey().equals(BACKGROUND)) {
                total += e.getValue();
            }
        }
        out.put("total", Math.round(total * scale * 100) / 100.0);
        return out;
    }

    /** One line: {@code heading} then every part. */
    public static String describe(String heading, Map<String, Double> parts) {
        StringBuilder s = new StringBuilder(heading);
        parts.forEach((part, ms) -> s.append(String.format(Locale.ROOT, " %s %.1f;", part, ms)));
        return s.substring(0, s.length() - 1);
    }
}
