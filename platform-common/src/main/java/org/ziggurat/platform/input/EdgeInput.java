package org.ziggurat.platform.input;

import org.ziggurat.platform.problem.ProblemException;

import java.util.function.Supplier;

/**
 * A request body read into typed fields at the HTTP edge, or the problem with it, kept until the
 * service asks for the fields. A service checks the caller's rights first and reads its input
 * after: a caller without the right gets 403, never a 422 that would describe the input to them.
 */
public final class EdgeInput<T> {

    private final T value;
    private final ProblemException problem;

    private EdgeInput(T value, ProblemException problem) {
        this.value = value;
        this.problem = problem;
    }

    /** What {@code reader} reads, or the problem it refuses the body with. */
    public static <T> EdgeInput<T> read(Supplier<T> reader) {
        try {
            return new EdgeInput<>(reader.get(), null);
        } catch (ProblemException refused) {
            return new EdgeInput<>(null, refused);
        }
    }

    /** The fields, or the body's problem thrown now (the caller's rights having been checked). */
    public T get() {
        if (problem != null) {
            throw problem;
        }
        return value;
    }
}
