package org.ziggurat.platform.problem;

/**
 * Another service this one needs could not be reached, or answered that it cannot serve now (a
 * 5xx). Nothing is wrong with the request, and it may be retried: the problem mappers answer 503
 * with Retry-After, and say which side is away (not the database).
 */
public class DependencyUnavailable extends RuntimeException {

    public DependencyUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
