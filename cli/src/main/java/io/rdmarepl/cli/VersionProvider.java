package io.rdmarepl.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest, or "development" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = RdmareplCommand.class.getPackage().getImplementationVersion();
        return new String[] {"rdmarepl " + (version == null ? "development" : version),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
