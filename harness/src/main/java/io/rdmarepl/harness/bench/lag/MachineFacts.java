package io.rdmarepl.harness.bench.lag;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the figures depend on: cores, how busy the host was before and after, JDK, PostgreSQL and its flushing. */
public final class MachineFacts {
    private MachineFacts() {
    }

    /** The one-minute load average ({@code /proc/loadavg}, else the JVM's view; -1 when neither has it). */
    public static double loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return Double.parseDouble(fields[0]);
        } catch (IOException | RuntimeException e) {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }

    public static Map<String, Object> of(double loadStart, double loadEnd, Endpoint primary, Endpoint replica) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("load_avg_start", loadStart);
        m.put("load_avg_end", loadEnd);
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
        m.put("postgresql", primary.query("postgres", "SHOW server_version"));
        m.put("fsync", primary.query("postgres", "SHOW fsync"));
        m.put("primary_synchronous_commit", primary.query("postgres", "SHOW synchronous_commit"));
        m.put("replica_fsync", replica.query("postgres", "SHOW fsync"));
        return m;
    }
}
