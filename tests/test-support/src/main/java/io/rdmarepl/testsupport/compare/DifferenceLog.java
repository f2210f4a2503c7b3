package io.rdmarepl.testsupport.compare;

import java.util.ArrayList;
import java.util.List;

/** The differences of one table or sequence: all counted, the first {@value #LISTED} kept (bounded memory). */
final class DifferenceLog {
    static final int LISTED = 1000;

    private final List<Difference> listed = new ArrayList<>();
    private long count;

    void add(Difference difference) {
        count++;
        if (listed.size() < LISTED) {
            listed.add(difference);
        }
    }

    long count() {
        return count;
    }

    List<Difference> listed() {
        return List.copyOf(listed);
    }
}
