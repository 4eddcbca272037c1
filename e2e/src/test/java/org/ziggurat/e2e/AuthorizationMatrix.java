package org.ziggurat.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The table of {@code e2e/authorization-matrix.md}, read as the test runs it: rows of a request
 * with the answer each kind of caller must get, and the routes left out on purpose, with why.
 */
record AuthorizationMatrix(List<String> callers, List<Row> rows, List<Route> exempt) {

    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    /** Method and path, the path's parameters written {@code {}}, whatever their names. */
    record Route(String method, String path) {

        /** A row's path may carry a query (a link's token, say): the route is the path without it. */
        static Route of(String method, String path) {
            return new Route(method.toUpperCase(), path.replaceFirst("\\?.*$", "").replaceAll("\\{[^/]*}", "{}"));
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    record Row(int line, String method, String path, String body, String marker, List<String> expected) {

        Route route() {
            return Route.of(method, path);
        }
    }

    static AuthorizationMatrix read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<String> callers = null;
        List<Row> rows = new ArrayList<>();
        List<Route> exempt = new ArrayList<>();
        String section = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.startsWith("## ")) {
                section = line;
                continue;
            }
            if (!line.startsWith("|")) {
                continue;
            }
            List<String> cells = cells(line);
            if (cells.get(0).equals("Method") && section.contains("cells")) {
                callers = cells.subList(4, cells.size());
                continue;
            }
            if (!METHODS.contains(cells.get(0))) {
                continue; // the header's rule, or a header
            }
            if (section.contains("cells")) {
                if (callers == null || cells.size() != 4 + callers.size()) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": a row needs " + (callers == null ? "a header"
                            : 4 + callers.size() + " cells") + ": " + line);
                }
                rows.add(new Row(i + 1, cells.get(0), cells.get(1), cells.get(2), cells.get(3),
                        List.copyOf(cells.subList(4, cells.size()))));
            } else if (section.contains("outside")) {
                exempt.add(Route.of(cells.get(0), cells.get(1)));
            }
        }
        if (callers == null || rows.isEmpty()) {
            throw new IllegalStateException(file + " has no matrix");
        }
        return new AuthorizationMatrix(List.copyOf(callers), rows, exempt);
    }

    /**
     * What is wrong with the table's coverage of the public API: a documented route in neither
     * table, or a listed route that the document does not have (a typo would test nothing).
     */
    List<String> coverageProblems(Map<String, Map<String, Object>> documentedPaths) {
        Set<Route> documented = new LinkedHashSet<>();
        documentedPaths.forEach((path, operations) -> operations.keySet().stream().map(String::toUpperCase)
                .filter(METHODS::contains).forEach(method -> documented.add(Route.of(method, path))));
        Set<Route> listed = new LinkedHashSet<>();
        rows.forEach(row -> listed.add(row.route()));
        listed.addAll(exempt);
        List<String> problems = new ArrayList<>();
        new TreeSet<>(documented.stream().filter(r -> !listed.contains(r)).map(Route::toString).toList())
                .forEach(r -> problems.add("route missing from the matrix: " + r));
        new TreeSet<>(listed.stream().filter(r -> !documented.contains(r)).map(Route::toString).toList())
                .forEach(r -> problems.add("route in the matrix that the API does not document: " + r));
        return problems;
    }

    private static List<String> cells(String line) {
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        return Arrays.stream(inner.split("\\|", -1)).map(String::trim).toList();
    }
}
