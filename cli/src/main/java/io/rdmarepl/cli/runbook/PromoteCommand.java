package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rdmarepl promote NAME}: make one particular standby the primary, whatever the primary's health. */
@Command(name = "promote", mixinStandardHelpOptions = true,
        description = "Ask the coordinator to promote a standby: the current primary is fenced first, whatever its health.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.REFUSED_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE,
            ExitCodes.NOT_AUTHORISED_LINE})
public final class PromoteCommand extends ActionCommand {
    @Parameters(paramLabel = "NAME", description = "the standby to promote")
    String member;

    @Override
    String path() {
        return "/promote";
    }

    @Override
    JsonNode body() {
        return CoordinatorAdmin.JSON.createObjectNode().put("member", member);
    }

    @Override
    String action() {
        return "promote " + member;
    }

    @Override
    String question(JsonNode status) {
        return "Promote " + member + " to primary of cluster " + Table.cell(status.get("cluster")) + " (fencing "
                + Table.cell(status.get("primary")) + " first)?";
    }
}
