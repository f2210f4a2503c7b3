package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rdmarepl switchover --to NAME}: planned handover of the primary role, nothing lost, old primary follows. */
@Command(name = "switchover", mixinStandardHelpOptions = true,
        description = {"Ask the coordinator for a planned switchover: the primary refuses writes and ends its client "
                + "sessions, the standby applies everything the primary committed (proven by a marker), the standby is "
                + "promoted, and the old primary rejoins as its standby (a fresh copy through the reverse shipper and applier).",
            "Clients get errors from the fence until the promotion (typically well under a second) and then follow the "
                    + "new primary. Refused unless the cluster is HEALTHY; called off, with the old primary taking writes "
                    + "again, when the standby does not catch up within 30 s."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.REFUSED_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE,
            ExitCodes.NOT_AUTHORISED_LINE})
public final class SwitchoverCommand extends ActionCommand {
    @Option(names = "--to", paramLabel = "NAME", description = "the standby to hand over to; default: the best qualifying standby")
    String to;

    @Override
    String path() {
        return "/switchover";
    }

    @Override
    JsonNode body() {
        ObjectNode body = CoordinatorAdmin.target(to);
        return body;
    }

    @Override
    String action() {
        return "switch over";
    }

    @Override
    String question(JsonNode status) {
        String primary = Table.cell(status.get("primary"));
        return "Switch cluster " + Table.cell(status.get("cluster")) + " over from " + primary + " to "
                + (to == null ? "the best standby" : to) + "? " + primary + " refuses writes from now until the promotion, "
                + "then rejoins as a standby.";
    }

    @Override
    String text(JsonNode answer) {
        JsonNode rejoin = answer.path("rejoin");
        return super.text(answer) + (rejoin.hasNonNull("message") ? "\nthen: " + rejoin.get("message").asText()
                + "\nfollow the copy with `rdmarepl status`: the cluster is HEALTHY again once it is applied" : "");
    }
}
