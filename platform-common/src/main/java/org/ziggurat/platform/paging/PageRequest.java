package org.ziggurat.platform.paging;

import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code page} (from 1) and {@code per_page} (default 30, at most 100) as the caller sent them.
 * Parsed from the raw query strings so that a bad value is a 400 problem naming the parameter,
 * not JAX-RS's silent 404 for an unconvertible parameter.
 */
public record PageRequest(int page, int perPage) {

    public static final int DEFAULT_PER_PAGE = 30;
    public static final int MAX_PER_PAGE = 100;
    /** Far past any real list; keeps offsets inside what Postgres and an int can hold. */
    public static final int MAX_PAGE = 1_000_000;

    public static PageRequest of(String page, String perPage) {
        List<Problem.FieldError> errors = new ArrayList<>();
        int p = parse(page, 1, 1, MAX_PAGE, "page", errors);
        int pp = parse(perPage, DEFAULT_PER_PAGE, 1, MAX_PER_PAGE, "per_page", errors);
        if (!errors.isEmpty()) {
            throw new ProblemException(400, "Bad Request", "The paging parameters are not valid.", errors);
        }
        return new PageRequest(p, pp);
    }

    public long offset() {
        return (long) (page - 1) * perPage;
    }

    public int limit() {
        return perPage;
    }

    /** One row more than a page: tells whether a next page exists without counting. */
    public int limitPlusOne() {
        return perPage + 1;
    }

    private static int parse(String raw, int fallback, int min, int max, String name, List<Problem.FieldError> errors) {
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value < min || value > max) {
                errors.add(new Problem.FieldError(name, "must be between " + min + " and " + max));
                return fallback;
            }
            return value;
        } catch (NumberFormatException e) {
            errors.add(new Problem.FieldError(name, "must be a whole number"));
            return fallback;
        }
    }
}
