package io.rdmarepl.distribution;

import io.rdmarepl.applier.config.ApplierConfig;
import io.rdmarepl.applier.config.ApplierKeys;
import io.rdmarepl.config.ConfigKeys;
import io.rdmarepl.coordinator.config.CoordinatorConfig;
import io.rdmarepl.coordinator.config.CoordinatorKeys;
import io.rdmarepl.shipper.config.ShipperConfig;
import io.rdmarepl.shipper.config.ShipperKeys;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The three configurable roles, each with its command, its key list and its real config loader. */
enum Role {
    SHIPPER("ship", "shipper"),
    APPLIER("apply", "applier"),
    COORDINATOR("coordinate", "coordinator");

    /** One documented key: name (may hold {@code <name>} or end in {@code .*}), default, its description (docs/configuration/). */
    record Key(String name, String defaultValue, String description) {
    }

    private final String command;
    private final String fileWord;

    Role(String command, String fileWord) {
        this.command = command;
        this.fileWord = fileWord;
    }

    String command() {
        return command;
    }

    List<Key> keys() {
        ConfigKeys keys = switch (this) {
            case SHIPPER -> ShipperKeys.ALL;
            case APPLIER -> ApplierKeys.ALL;
            case COORDINATOR -> CoordinatorKeys.ALL;
        };
        return keys.keys().stream().map(k -> new Key(k.name(), k.defaultText(), k.description())).toList();
    }

    /** Loads {@code file} as {@code rdmarepl <command> --config file} does; throws listing every problem. */
    Object load(Path file) {
        return switch (this) {
            case SHIPPER -> ShipperConfig.load(file);
            case APPLIER -> ApplierConfig.load(file);
            case COORDINATOR -> CoordinatorConfig.load(file);
        };
    }

    /** The role of an example config, by its file name: {@code reverse-shipper.properties} is a shipper's. */
    static Role ofFileName(Path file) {
        String name = file.getFileName().toString();
        return Arrays.stream(values()).filter(r -> name.contains(r.fileWord)).findFirst()
                .orElseThrow(() -> new AssertionError(file + ": the file name must say whose config it is (shipper, applier, coordinator)"));
    }

    /** The role a command line starts, e.g. {@code [apply, --config, ...]}; null for other commands (bench). */
    static Role ofCommand(List<String> command) {
        return command.isEmpty() ? null : Arrays.stream(values()).filter(r -> r.command.equals(command.get(0))).findFirst().orElse(null);
    }
}
