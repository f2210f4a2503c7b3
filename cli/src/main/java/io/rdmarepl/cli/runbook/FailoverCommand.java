package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rdmarepl failover}: ask the coordinator to fence the primary and promote a standby. */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Ask the coordinator to fail over: fence the primary, drain the chosen standby's ring, promote it.",
            "Without --force the coordinator refuses while the primary is healthy. With --force (planned maintenance) "
                    + "it fails over anyway; in async mode what the primary committed beyond the standby's applied "
                    + "position is lost, so stop writes first."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.REFUSED_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE,
            ExitCodes.NOT_AUTHORISED_LINE})
public final class FailoverCommand extends ActionCommand {
    @Option(names = "--to", paramLabel = "NAME", description = "the standby to promote; default: the best qualifying standby")
    String to;

    @Option(names = "--force", description = "fail over even though the primary looks healthy, or to a lagging standby")
    boolean force;

    @Override
    String path() {
        return "/failover";
    }

    @Override
    JsonNode body() {
        ObjectNode body = CoordinatorAdmin.target(to);
        body.put("force", force);
        return body;
    }

    @Override
    String action() {
        return "fail over";
    }

    @Override
    String question(JsonNode status) {
        String primary = Table.cell(status.get("primary"));
        String target = to == null ? "the best standby" : to;
        String question = "Fail over cluster " + Table.cell(status.get("cluster")) + " from " + primary + " to " + target + "?";
        return force ? question + " (--force: even if " + primary + " is healthy; what it committed beyond " + target
                + "'s applied position is lost)" : question;
    }
}
