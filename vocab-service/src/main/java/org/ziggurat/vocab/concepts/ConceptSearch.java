package org.ziggurat.vocab.concepts;

import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.vocab.Languages;

import java.util.List;

/**
 * A label search, {@code q} with an optional {@code lang}. {@code *} stands for any text:
 * {@code bab*} finds labels that begin with "bab", {@code *bab*} labels that contain it,
 * {@code *lon} labels that end with it, and a term without {@code *} the whole label. Case and
 * accents do not matter: query and labels are folded alike by the database's {@code fold()}.
 */
public record ConceptSearch(String query, String language) {

    /** Longest accepted query, in characters. */
    static final int MAX_LENGTH = 200;

    /**
     * The LIKE pattern built in SQL from the query in $1: folded, LIKE's own wildcards and escape
     * character taken literally, {@code *} made the wildcard.
     */
    static final String LIKE_PATTERN_OF_$1 =
            "replace(replace(replace(replace(fold($1), '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%')";

    /** How the labels are found: by the b-tree of folded labels, or by the trigram index. */
    enum Shape {
        /** No {@code *}: the whole label, an equality on the folded label. */
        WHOLE,
        /** One {@code *}, at the end: a range of the folded labels. */
        PREFIX,
        /** Anything else: the trigram index. */
        PATTERN
    }

    Shape shape() {
        int star = query.indexOf('*');
        if (star < 0) {
            return Shape.WHOLE;
        }
        return star == query.length() - 1 ? Shape.PREFIX : Shape.PATTERN;
    }

    public static ConceptSearch parse(String q, String lang) {
        if (q == null) {
            return null;
        }
        String query = q.strip();
        String literal = query.replace("*", "");
        if (literal.isBlank()) {
            throw invalid("q", "q must name some text to search for, such as bab* or *ylon*.");
        }
        if (query.length() > MAX_LENGTH || query.chars().anyMatch(Character::isISOControl)) {
            throw invalid("q", "q must be at most " + MAX_LENGTH + " characters, without control characters.");
        }
        // A pattern that does not start at the label's beginning can only use the trigram index
        // with three characters to go on; anything shorter would read every label.
        if (query.startsWith("*") && longestRun(query) < 3) {
            throw invalid("q", "A search that starts with * needs at least three characters in a row, such as *ylo*.");
        }
        String language = null;
        if (lang != null) {
            language = Languages.parse(lang).orElseThrow(() -> invalid("lang",
                    "lang must be a language such as en, eng or 'eng (en) - English'."));
        }
        return new ConceptSearch(query, language);
    }

    private static int longestRun(String query) {
        int best = 0;
        for (String part : query.split("\\*")) {
            best = Math.max(best, part.strip().length());
        }
        return best;
    }

    private static ProblemException invalid(String field, String detail) {
        return new ProblemException(400, "Bad Request", detail, List.of(new Problem.FieldError(field, detail)));
    }
}
