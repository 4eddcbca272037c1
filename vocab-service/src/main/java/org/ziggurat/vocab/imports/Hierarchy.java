package org.ziggurat.vocab.imports;

import java.util.Iterator;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Broader links as a graph. */
final class Hierarchy {

    private Hierarchy() {
    }

    /** A concept on a cycle of broader links, or null; iterative, so a deep hierarchy cannot overflow the stack. */
    static String findCycle(Map<String, List<String>> broader) {
        Map<String, Integer> state = new HashMap<>(); // absent: unseen, 1: on the current path, 2: done
        for (String start : broader.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            Deque<Map.Entry<String, Iterator<String>>> path = new ArrayDeque<>();
            state.put(start, 1);
            path.push(Map.entry(start, broader.getOrDefault(start, List.of()).iterator()));
            while (!path.isEmpty()) {
                var top = path.peek();
                if (top.getValue().hasNext()) {
                    String next = top.getValue().next();
                    Integer s = state.get(next);
                    if (s == null) {
                        state.put(next, 1);
                        path.push(Map.entry(next, broader.getOrDefault(next, List.of()).iterator()));
                    } else if (s == 1) {
                        return next;
                    }
                } else {
                    state.put(top.getKey(), 2);
                    path.pop();
                }
            }
        }
        return null;
    }
}
