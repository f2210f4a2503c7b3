package io.rdmarepl.cli.runbook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rdmarepl history}: what the coordinator did and why, to reconstruct the night. */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = "Show the cluster's recent state changes (phase, epoch, reason), newest last.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE_LINE, ExitCodes.FAILED_READ_LINE, ExitCodes.BAD_USAGE_LINE, ExitCodes.UNREACHABLE_LINE})
public final class HistoryCommand extends RunbookCommand {
    // fixed width (always milliseconds) so the TIME column lines up
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20",
            description = "show the last N changes (default: ${DEFAULT-VALUE})")
    int limit;

    public HistoryCommand() {
        super(READ_TIMEOUT);
    }

    @Override
    int run() throws InterruptedException {
        if (limit < 1) {
            throw new RunbookFailure(ExitCodes.BAD_USAGE, "--limit must be at least 1, got " + limit);
        }
        List<JsonNode> entries = newestLast(admin().get("/history").path("history"));
        List<JsonNode> shown = entries.subList(Math.max(0, entries.size() - limit), entries.size());
        if (options.json()) {
            ObjectNode document = CoordinatorAdmin.JSON.createObjectNode();
            shown.forEach(document.putArray("history")::add);
            printJson(document);
            return ExitCodes.DONE;
        }
        Table table = new Table("TIME", "FROM", "TO", "EPOCH", "REASON");
        for (JsonNode entry : shown) {
            table.row(time(entry.get("at_ms")), Table.cell(entry.get("from")), Table.cell(entry.get("to")),
                    Table.cell(entry.get("epoch")), Table.cell(entry.get("reason")));
        }
        table.print(out());
        return ExitCodes.DONE;
    }

    private static List<JsonNode> newestLast(JsonNode history) {
        List<JsonNode> entries = new ArrayList<>();
        history.forEach(entries::add);
        // stable: changes in the same millisecond keep the coordinator's order
        entries.sort(Comparator.comparingLong(e -> e.path("at_ms").asLong(0)));
        return entries;
    }

    private static String time(JsonNode atMs) {
        return atMs == null || !atMs.canConvertToLong() ? "-" : TIME.format(Instant.ofEpochMilli(atMs.asLong()));
    }
}
