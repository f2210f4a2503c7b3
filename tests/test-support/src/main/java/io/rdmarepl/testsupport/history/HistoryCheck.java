package io.rdmarepl.testsupport.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What a client-side history proves (Jepsen's way: judged by the anomalies it names).
 * <ul>
 *   <li>{@link #overlappingPrimaries}: never two primaries. Over one trial each member's acknowledgements span a
 *       {@link PrimaryWindow}; two members whose windows intersect both took writes at the same time, within the
 *       precision of a client round trip. Where the later member's first acknowledgement came back before an earlier
 *       member's write was even sent, the overlap is certain, and the message says so.</li>
 *   <li>{@link #lost}: acknowledged writes the surviving primary does not hold.</li>
 * </ul>
 */
public final class HistoryCheck {
    private HistoryCheck() {
    }

    /** Each member's window, in the order the windows begin. */
    public static List<PrimaryWindow> windows(Collection<Ack> acks) {
        Map<String, PrimaryWindow> windows = new LinkedHashMap<>();
        acks.stream().sorted((x, y) -> Long.compare(x.acknowledgedNs(), y.acknowledgedNs())).forEach(ack ->
                windows.merge(ack.member(), new PrimaryWindow(ack.member(), ack, ack, 1),
                        (w, n) -> new PrimaryWindow(w.member(), w.first(), ack, w.acks() + 1)));
        return List.copyOf(windows.values());
    }

    /** One sentence per pair of members whose windows overlap; empty when there never were two primaries. */
    public static List<String> overlappingPrimaries(Collection<Ack> acks) {
        List<PrimaryWindow> windows = windows(acks);
        List<String> overlaps = new ArrayList<>();
        for (int i = 0; i < windows.size(); i++) {
            for (int j = i + 1; j < windows.size(); j++) {
                PrimaryWindow earlier = windows.get(i);
                PrimaryWindow later = windows.get(j);
                if (earlier.overlaps(later)) {
                    overlaps.add(describe(earlier, later, acks));
                }
            }
        }
        return overlaps;
    }

    /** The ids of {@code acknowledged} that {@code held} lacks, in order. */
    public static Set<Long> lost(Collection<Long> acknowledged, Set<Long> held) {
        Set<Long> lost = new TreeSet<>(acknowledged);
        lost.removeAll(held);
        return lost;
    }

    private static String describe(PrimaryWindow earlier, PrimaryWindow later, Collection<Ack> acks) {
        Ack laterFirst = later.first();
        Ack earlierAfter = acks.stream().filter(a -> a.member().equals(earlier.member()))
                .filter(a -> a.acknowledgedNs() >= laterFirst.acknowledgedNs()).findFirst().orElse(earlier.last());
        boolean certain = earlierAfter.invokedNs() > laterFirst.acknowledgedNs();
        long overlapMs = TimeUnit.NANOSECONDS.toMillis(Math.min(earlier.last().acknowledgedNs(), later.last().acknowledgedNs())
                - laterFirst.acknowledgedNs());
        return "two primaries: " + later.member() + " acknowledged write " + laterFirst.id() + " while " + earlier.member()
                + " still took writes (write " + earlierAfter.id() + " acknowledged " + TimeUnit.NANOSECONDS.toMillis(
                earlierAfter.acknowledgedNs() - laterFirst.acknowledgedNs()) + " ms later" + (certain ? ", sent after it: certain" : "")
                + "); " + earlier.member() + " acknowledged " + earlier.acks() + " writes, " + later.member() + " " + later.acks()
                + ", overlapping for " + overlapMs + " ms";
    }
}
