package io.rdmarepl.cli.runbook;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** Where the coordinator's admin endpoint is and how to talk to it: the options every runbook command shares. */
public final class CoordinatorOptions {
    static final String DEFAULT_URL = "http://127.0.0.1:7490";

    @Option(names = "--coordinator", paramLabel = "URL", defaultValue = "${env:RDMAREPL_COORDINATOR:-" + DEFAULT_URL + "}",
            description = {"the coordinator's admin endpoint (its admin.address)",
                "default: env RDMAREPL_COORDINATOR,", "else " + DEFAULT_URL})
    String url;

    // never shown as a default: the default is a secret read from the environment
    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:RDMAREPL_ADMIN_TOKEN}", showDefaultValue = Visibility.NEVER,
            description = "the coordinator's admin.token, sent on failover/promote/fence; default: env RDMAREPL_ADMIN_TOKEN")
    String token;

    @Option(names = "--json", description = "print JSON for scripts instead of text for humans")
    boolean json;

    @Option(names = "--timeout-ms", paramLabel = "MS",
            description = "how long to wait for the coordinator's answer; default 5000 for status/lag/history, "
                    + "90000 for failover/promote/fence (a failover may drain a ring)")
    Long timeoutMs;

    /** The endpoint as a URI without a trailing slash; bad usage when it is not an http(s) URL with a host. */
    URI coordinator() {
        String trimmed = url == null ? "" : url.strip().replaceAll("/+$", "");
        try {
            URI uri = new URI(trimmed);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below, in the same words as a wrong scheme
        }
        throw new RunbookFailure(ExitCodes.BAD_USAGE, "--coordinator must be an http:// URL such as " + DEFAULT_URL
                + ", got '" + url + "'");
    }

    Duration timeout(Duration commandDefault) {
        if (timeoutMs == null) {
            return commandDefault;
        }
        if (timeoutMs <= 0) {
            throw new RunbookFailure(ExitCodes.BAD_USAGE, "--timeout-ms must be a positive number of milliseconds, got " + timeoutMs);
        }
        return Duration.ofMillis(timeoutMs);
    }

    /** The token, or null when neither --token nor RDMAREPL_ADMIN_TOKEN gives one. */
    String token() {
        return token == null || token.isEmpty() ? null : token;
    }

    boolean json() {
        return json;
    }
}
