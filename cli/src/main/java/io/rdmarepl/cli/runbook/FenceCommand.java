package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rdmarepl fence NAME}: make a member refuse writes, e.g. an old primary that came back. */
@Command(name = "fence", mixinStandardHelpOptions = true,
        description = "Ask the coordinator to fence a member: it refuses writes and is recorded as FENCED.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.REFUSED_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE,
            ExitCodes.NOT_AUTHORISED_LINE})
public final class FenceCommand extends ActionCommand {
    @Parameters(paramLabel = "NAME", description = "the member to fence")
    String member;

    @Override
    String path() {
        return "/fence";
    }

    @Override
    JsonNode body() {
        return CoordinatorAdmin.JSON.createObjectNode().put("member", member);
    }

    @Override
    String action() {
        return "fence " + member;
    }

    @Override
    String question(JsonNode status) {
        String cluster = Table.cell(status.get("cluster"));
        // fencing the primary stops all writes: the question must say so, not just name it
        return member.equals(Table.cell(status.get("primary")))
                ? "Fence " + member + ", the PRIMARY of cluster " + cluster + "? Writes stop until a standby is promoted."
                : "Fence " + member + " in cluster " + cluster + "? It will refuse writes.";
    }
}
