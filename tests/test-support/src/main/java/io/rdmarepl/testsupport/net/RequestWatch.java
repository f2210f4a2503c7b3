package io.rdmarepl.testsupport.net;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Who sent requests of one kind to a host, and when first and last, seen on the wire rather than in anyone's log: an
 * nftables table in the host's namespace whose input chain adds each matching packet's source address to a set once
 * ({@code first_seen}) and refreshes it in another on every one ({@code last_seen}). Elements time out after an hour,
 * and the time left says when the packet came. A matching packet is TCP to one of the ports whose payload begins with
 * the given prefix: {@code "POST"} catches every request a coordinator acts with on a role's admin endpoint (lease
 * renewals, drain, promote, fence, retire), and none of its reads. Resolution: the kernel's jiffies (4 ms at 250 Hz).
 */
public final class RequestWatch implements AutoCloseable {
    private static final long TIMEOUT_MS = TimeUnit.HOURS.toMillis(1);
    private static final Pattern ELEMENT = Pattern.compile("(\\d+\\.\\d+\\.\\d+\\.\\d+) expires ([0-9hdms]+)");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|d|h|m|s)");

    private final NetHost host;
    private final String table;

    /** When one source's packets were seen, on {@link System#nanoTime()}. */
    public record Seen(String source, long firstNs, long lastNs) {
    }

    private RequestWatch(NetHost host, String table) {
        this.host = host;
        this.table = table;
    }

    /** Starts watching packets to {@code host} on {@code ports} whose payload begins with {@code prefix} (1 to 4 ASCII bytes). */
    public static RequestWatch on(NetHost host, String prefix, int... ports) {
        if (host.namespace().isEmpty()) {
            throw new UnsupportedOperationException("the client host is the root namespace: no watch on it");
        }
        byte[] bytes = prefix.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length < 1 || bytes.length > 4 || ports.length == 0) {
            throw new IllegalArgumentException("prefix of 1 to 4 bytes and at least one port: '" + prefix + "', " + Arrays.toString(ports));
        }
        String table = "rdmarepl_watch_" + HexFormat.of().formatHex(bytes);
        String portSet = Arrays.stream(ports).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        SystemCommand.run(host.command(List.of("nft", "-f", "-")), "table inet " + table + " {\n"
                + "  set first_seen { type ipv4_addr; flags dynamic,timeout; timeout 1h; }\n"
                + "  set last_seen { type ipv4_addr; flags dynamic,timeout; timeout 1h; }\n"
                + "  chain input {\n"
                + "    type filter hook input priority 0; policy accept;\n"
                + "    tcp dport { " + portSet + " } @ih,0," + bytes.length * 8 + " 0x" + HexFormat.of().formatHex(bytes)
                + " add @first_seen { ip saddr } update @last_seen { ip saddr }\n"
                + "  }\n"
                + "}\n");
        return new RequestWatch(host, table);
    }

    /** Every source seen since the start or the last {@link #reset()}, by address. */
    public Map<String, Seen> seen() {
        Map<String, Long> first = read("first_seen");
        Map<String, Long> last = read("last_seen");
        Map<String, Seen> seen = new LinkedHashMap<>();
        first.forEach((source, firstNs) -> seen.put(source, new Seen(source, firstNs, last.getOrDefault(source, firstNs))));
        return seen;
    }

    /** Forgets every source seen so far. */
    public void reset() {
        host.run("nft", "flush", "set", "inet", table, "first_seen");
        host.run("nft", "flush", "set", "inet", table, "last_seen");
    }

    private Map<String, Long> read(String set) {
        long beforeNs = System.nanoTime();
        String listing = host.run("nft", "list", "set", "inet", table, set);
        long atNs = beforeNs + (System.nanoTime() - beforeNs) / 2;
        Map<String, Long> seen = new LinkedHashMap<>();
        Matcher m = ELEMENT.matcher(listing);
        while (m.find()) {
            long agoMs = TIMEOUT_MS - durationMs(m.group(2));
            seen.put(m.group(1), atNs - TimeUnit.MILLISECONDS.toNanos(agoMs));
        }
        return seen;
    }

    /** nft's durations: "59m58s472ms", "1h", "9s". */
    static long durationMs(String text) {
        long ms = 0;
        Matcher m = PART.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            ms += switch (m.group(2)) {
                case "d" -> TimeUnit.DAYS.toMillis(n);
                case "h" -> TimeUnit.HOURS.toMillis(n);
                case "m" -> TimeUnit.MINUTES.toMillis(n);
                case "s" -> TimeUnit.SECONDS.toMillis(n);
                default -> n;
            };
        }
        return ms;
    }

    /** Removes the table (removing the namespace does too). */
    @Override
    public void close() {
        SystemCommand.attempt(host.command(List.of("nft", "delete", "table", "inet", table)));
    }

    @Override
    public String toString() {
        return "requests to " + host.name() + " (" + table + ")";
    }
}
