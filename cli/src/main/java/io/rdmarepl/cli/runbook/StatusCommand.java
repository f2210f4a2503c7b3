package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

/** {@code rdmarepl status}: the first thing to run when paged. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show the cluster as the coordinator sees it: epoch, phase, primary, each member's lag, "
                + "whether it could be promoted, and the coordinator's last decision.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.FAILED_READ_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE})
public final class StatusCommand extends RunbookCommand {
    public StatusCommand() {
        super(READ_TIMEOUT);
    }

    @Override
    int run() throws InterruptedException {
        JsonNode status = admin().get("/status");
        if (options.json()) {
            printJson(status);
        } else {
            StatusText.print(status, out());
        }
        return ExitCodes.DONE;
    }
}
