package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;

/** {@code rdmarepl lag}: how far behind each standby is, before choosing one to fail over to. */
@Command(name = "lag", mixinStandardHelpOptions = true,
        description = "Show each member's applied and durable LSN and how far it lags the primary (bytes and ms).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.FAILED_READ_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE})
public final class LagCommand extends RunbookCommand {
    private static final String[] FIELDS = {"name", "role", "applied_lsn", "durable_lsn", "lag_bytes", "lag_ms"};

    public LagCommand() {
        super(READ_TIMEOUT);
    }

    @Override
    int run() throws InterruptedException {
        JsonNode members = admin().get("/status").path("members");
        if (options.json()) {
            printJson(json(members));
            return ExitCodes.DONE;
        }
        Table table = new Table("NAME", "ROLE", "APPLIED LSN", "DURABLE LSN", "LAG BYTES", "LAG MS");
        for (JsonNode m : members) {
            String[] cells = new String[FIELDS.length];
            for (int i = 0; i < FIELDS.length; i++) {
                cells[i] = Table.cell(m.get(FIELDS[i]));
            }
            table.row(cells);
        }
        table.print(out());
        return ExitCodes.DONE;
    }

    /** Every member with every lag field, null where the coordinator has none (the primary has no applier). */
    private static JsonNode json(JsonNode members) {
        ObjectNode document = CoordinatorAdmin.JSON.createObjectNode();
        ArrayNode array = document.putArray("members");
        for (JsonNode m : members) {
            ObjectNode member = array.addObject();
            for (String field : FIELDS) {
                member.set(field, m.hasNonNull(field) ? m.get(field) : member.nullNode());
            }
        }
        return document;
    }
}
