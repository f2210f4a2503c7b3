package io.rdmarepl.testsupport.net;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what a killed run left: namespaces named {@code rdmarepl-<pid>-<host>} and bridges named {@code rrb<pid><letter>}
 * whose owning JVM ({@code pid}) no longer runs. Processes still inside such a namespace are killed first, since a
 * namespace lives on as long as a process is in it. Namespaces of runs that are alive are left alone, so parallel
 * runs never remove each other's hosts.
 */
final class StaleNetworks {
    static final String BRIDGE_PREFIX = "rrb";
    private static final Pattern NAMESPACE = Pattern.compile("^(" + Pattern.quote(NetworkNamespaces.PREFIX) + "(\\d+)-[a-z0-9-]+)\\b.*");
    private static final Pattern BRIDGE = Pattern.compile("^\\d+: (" + BRIDGE_PREFIX + "(\\d+)[a-z])[:@].*");
    private static final Logger LOG = LoggerFactory.getLogger(StaleNetworks.class);
    private static boolean cleaned;

    private StaleNetworks() {
    }

    /** Once per JVM, before its first network. */
    static synchronized void cleanOnce() {
        if (cleaned) {
            return;
        }
        cleaned = true;
        clean();
    }

    /** Removes every namespace and bridge of this fixture whose owning JVM is gone. */
    static void clean() {
        for (String line : SystemCommand.run(List.of("ip", "netns", "list")).lines().toList()) {
            Matcher m = NAMESPACE.matcher(line.trim());
            if (m.matches() && !alive(Long.parseLong(m.group(2)))) {
                removeNamespace(m.group(1));
            }
        }
        for (String line : SystemCommand.run(List.of("ip", "-o", "link", "show", "type", "bridge")).lines().toList()) {
            Matcher m = BRIDGE.matcher(line.trim());
            if (m.matches() && !alive(Long.parseLong(m.group(2)))) {
                SystemCommand.attempt(List.of("ip", "link", "del", m.group(1)));
                LOG.info("removed stale bridge {}", m.group(1));
            }
        }
    }

    /** Kills every process inside {@code namespace}, then deletes it. */
    static void removeNamespace(String namespace) {
        String pids = SystemCommand.attempt(List.of("ip", "netns", "pids", namespace)).output();
        pids.lines().map(String::trim).filter(p -> p.matches("\\d+"))
                .forEach(pid -> ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly));
        SystemCommand.Result deleted = SystemCommand.attempt(List.of("ip", "netns", "del", namespace));
        LOG.info("removed namespace {}{}", namespace, deleted.succeeded() ? "" : ": " + deleted.firstLine());
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
