package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rdmarepl rejoin NAME}: make a fenced former primary a standby of the current primary again. */
@Command(name = "rejoin", mixinStandardHelpOptions = true,
        description = {"Ask the coordinator to make a fenced former primary (back after a failover) a standby of the "
                + "current primary: its shipper gives up its slot, its applier starts following, and the primary's "
                + "shipper copies every published table to it from a fresh slot, then streams.",
            "Whatever the old primary committed that never reached the standby before the failover is overwritten by "
                    + "the copy: save it first if it matters (rdmarepl history shows the failover's applied LSN)."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.REFUSED_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE,
            ExitCodes.NOT_AUTHORISED_LINE})
public final class RejoinCommand extends ActionCommand {
    @Parameters(paramLabel = "NAME", description = "the fenced member to rejoin")
    String member;

    @Override
    String path() {
        return "/rejoin";
    }

    @Override
    JsonNode body() {
        return CoordinatorAdmin.JSON.createObjectNode().put("member", member);
    }

    @Override
    String action() {
        return "rejoin " + member;
    }

    @Override
    String question(JsonNode status) {
        return "Rejoin " + member + " as a standby of " + Table.cell(status.get("primary")) + "? Its tables are "
                + "replaced by a copy of the primary's.";
    }
}
