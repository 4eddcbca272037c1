package org.ziggurat.auth.clients;

import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.ziggurat.auth.AuthConfig;

import java.util.Locale;
import java.util.Set;

/**
 * The platform's own name and who may use it (RFC 7591 §5: a client must not pass for another).
 * An application whose name reads as the platform's, whatever its case, spacing or look-alike
 * letters ("Ziggurat CLI", "ZIG GURAT", a Greek Zeta or a Cyrillic a in it), would have the
 * sign-in page say "Ziggurat wants to use your Ziggurat account": only an operator may give that.
 */
@ApplicationScoped
public class PlatformName {

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();

    private final String name;
    private final String reserved;
    private final Set<Long> operators;

    @Inject
    PlatformName(AuthConfig config) {
        this(config.platformName(), config.operators().orElse(Set.of()));
    }

    PlatformName(String name, Set<Long> operators) {
        this.name = name;
        this.reserved = skeleton(name);
        this.operators = Set.copyOf(operators);
    }

    /** The platform's name, as the pages say it. */
    public String name() {
        return name;
    }

    public boolean isOperator(long personId) {
        return operators.contains(personId);
    }

    /** Whether {@code candidate} reads as the platform's own name, or holds it. */
    public boolean imitatedBy(String candidate) {
        if (reserved.isEmpty() || candidate == null) {
            return false;
        }
        // Both ways round: a capital look-alike (a Greek Zeta) is confusable before case folding,
        // a small one (a Cyrillic a) after it.
        return fold(CONFUSABLES.getSkeleton(NFKC.normalize(candidate))).contains(reserved) || skeleton(candidate).contains(reserved);
    }

    /**
     * What a name looks like, for comparing: compatibility forms and case folded (NFKC_Casefold:
     * a double-struck Z is Z), then Unicode's confusable skeleton (TS #39: a Cyrillic a is a, "rn"
     * is m), folded again, with only letters and digits kept; last the look-alikes the skeleton
     * keeps apart in lower case (1 and l for i, 0 for o).
     */
    static String skeleton(String text) {
        return fold(CONFUSABLES.getSkeleton(NFKC_CASEFOLD.normalize(text)));
    }

    private static String fold(String skeleton) {
        String folded = NFKC_CASEFOLD.normalize(skeleton);
        StringBuilder out = new StringBuilder(folded.length());
        folded.codePoints().filter(Character::isLetterOrDigit).forEach(c -> out.appendCodePoint(switch (c) {
            case '1', 'l', '|' -> 'i';
            case '0' -> 'o';
            default -> c;
        }));
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
