package io.rdmarepl.config;

import java.util.Collection;

/** The known key a misspelt one was probably meant to be. */
final class Spelling {
    /** Edits (insert, delete, replace a character) beyond which two names are not taken for the same. */
    private static final int MOST_EDITS = 3;

    private Spelling() {
    }

    /** The name of {@code known} closest to {@code name}, or null when none is within {@value #MOST_EDITS} edits. */
    static String closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = MOST_EDITS + 1;
        for (String candidate : known) {
            int distance = distance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
