package io.rdmarepl.distribution;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** {@code docker-compose.yml} as parsed YAML (anchors and merge keys resolved), with the lookups the tests need. */
final class ComposeFile {
    static final Path FILE = RepositoryFiles.ROOT.resolve("docker-compose.yml");

    private final Map<String, Service> services = new LinkedHashMap<>();

    private ComposeFile(Map<String, Object> document) {
        Map<String, Object> all = map(document.get("services"));
        all.forEach((name, body) -> services.put(name, new Service(name, map(body))));
    }

    static ComposeFile load() {
        try (Reader reader = Files.newBufferedReader(FILE, StandardCharsets.UTF_8)) {
            return new ComposeFile(map(new Yaml(new SafeConstructor(new LoaderOptions())).load(reader)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Service> services() {
        return List.copyOf(services.values());
    }

    Optional<Service> service(String name) {
        return Optional.ofNullable(services.get(name));
    }

    /** One service: its YAML body and, when it runs an rdmarepl role, that role and its mounted config. */
    record Service(String name, Map<String, Object> body) {

        List<String> profiles() {
            return strings(body.get("profiles"));
        }

        List<String> command() {
            return strings(body.get("command"));
        }

        Role role() {
            return Role.ofCommand(command());
        }

        boolean hostNetwork() {
            return "host".equals(body.get("network_mode"));
        }

        boolean sharesProfileWith(Service other) {
            return profiles().stream().anyMatch(other.profiles()::contains);
        }

        Map<String, Object> healthcheck() {
            return map(body.get("healthcheck"));
        }

        /** {@code environment} as a map (compose also allows a list of KEY=VALUE). */
        Map<String, String> environment() {
            Map<String, String> env = new LinkedHashMap<>();
            Object raw = body.get("environment");
            if (raw instanceof Map<?, ?> m) {
                m.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
            } else {
                for (String line : strings(raw)) {
                    env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
                }
            }
            return env;
        }

        List<String> volumes() {
            return strings(body.get("volumes"));
        }

        /** Host side of each {@code ./config/...} bind mount, by its path in the container. */
        Map<String, Path> configMounts() {
            Map<String, Path> mounts = new LinkedHashMap<>();
            for (String volume : volumes()) {
                String[] parts = volume.split(":");
                if (parts[0].startsWith("./config/")) {
                    mounts.put(parts[1], RepositoryFiles.ROOT.resolve(parts[0].substring(2)));
                }
            }
            return mounts;
        }

        /** The config the command reads ({@code --config FILE}), on the host; empty when it reads none. */
        Optional<Path> config() {
            List<String> command = command();
            int at = command.indexOf("--config");
            return at < 0 || at + 1 >= command.size() ? Optional.empty() : Optional.ofNullable(configMounts().get(command.get(at + 1)));
        }

        Properties properties() {
            return RepositoryFiles.properties(config().orElseThrow(() -> new AssertionError(name + " mounts no config")));
        }

        /** Published ports as {@code host_ip:host_port:container_port}. */
        List<String> ports() {
            return strings(body.get("ports"));
        }

        List<String> expose() {
            return strings(body.get("expose"));
        }

        /** {@code extra_hosts} aliases: name to address. */
        Map<String, String> extraHosts() {
            Map<String, String> hosts = new LinkedHashMap<>();
            for (String entry : strings(body.get("extra_hosts"))) {
                hosts.put(entry.substring(0, entry.indexOf(':')), entry.substring(entry.indexOf(':') + 1));
            }
            return hosts;
        }

        /** The container port published on the host at {@code hostPort} (127.0.0.1:hostPort:containerPort), or -1. */
        int containerPortPublishedAt(int hostPort) {
            for (String port : ports()) {
                String[] parts = port.split(":");
                if (parts.length == 3 && Integer.parseInt(parts[1]) == hostPort) {
                    return Integer.parseInt(parts[2].replace("/tcp", ""));
                }
            }
            return -1;
        }

        boolean publishes(int containerPort) {
            return ports().stream().anyMatch(p -> p.endsWith(":" + containerPort));
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        return node instanceof Map<?, ?> ? (Map<String, Object>) node : Map.of();
    }

    static List<String> strings(Object node) {
        List<String> out = new ArrayList<>();
        if (node instanceof List<?> list) {
            list.forEach(item -> out.add(String.valueOf(item)));
        } else if (node != null) {
            out.add(String.valueOf(node));
        }
        return out;
    }
}
