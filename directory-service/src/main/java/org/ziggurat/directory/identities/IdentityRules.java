package org.ziggurat.directory.identities;

import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;
import java.util.regex.Pattern;

/** What an identity from auth-service must be before it is stored: each field's rule, a 422 naming the field. */
final class IdentityRules {

    static final int MOST_ASSURANCE_VALUES = 20;
    private static final Pattern PROVIDER = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Pattern ORCID = Pattern.compile("\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]");

    private IdentityRules() {
    }

    /** The identity as stored, or 422 naming the field. */
    static LinkedIdentityRepository.Upstream checked(LinkedIdentities.UpstreamIdentity identity) {
        if (identity == null) {
            throw ProblemException.invalidField("identity", FieldChecks.REQUIRED);
        }
        FieldChecks errors = new FieldChecks();
        if (identity.provider() == null || !PROVIDER.matcher(identity.provider()).matches()) {
            errors.add("provider", "must be a provider's id: lower-case letters, digits and hyphens, at most 40");
        }
        if (identity.subject() == null || identity.subject().isBlank() || identity.subject().length() > 255) {
            errors.add("subject", "must be 1 to 255 characters");
        }
        if (identity.issuer() != null && (identity.issuer().length() > 500 || identity.issuer().chars().anyMatch(Character::isWhitespace))) {
            errors.add("issuer", "must be at most 500 characters without spaces");
        }
        if (identity.displayName() != null && identity.displayName().length() > 200) {
            errors.add("display_name", "must be at most 200 characters");
        }
        if (identity.email() != null && identity.email().length() > ProfileRules.EMAIL_MAX) {
            errors.add("email", "must be at most " + ProfileRules.EMAIL_MAX + " characters");
        }
        List<String> assurance = identity.assurance() == null ? List.of() : identity.assurance();
        if (assurance.size() > MOST_ASSURANCE_VALUES || assurance.stream().anyMatch(v -> v == null || v.isBlank()
                || v.length() > 255 || v.chars().anyMatch(Character::isWhitespace))) {
            errors.add("assurance", "must be at most " + MOST_ASSURANCE_VALUES + " URIs without spaces");
        }
        if (identity.orcid() != null && !ORCID.matcher(identity.orcid()).matches()) {
            errors.add("orcid", "must be an ORCID iD, 0000-0000-0000-000X");
        }
        errors.throwIfFailed("The identity is not valid.");
        String email = identity.email() == null || identity.email().isBlank() ? null : identity.email().strip();
        return new LinkedIdentityRepository.Upstream(identity.provider(), identity.subject(), identity.displayName(),
                email,
                Boolean.TRUE.equals(identity.emailVerified()) && email != null, String.join(" ", assurance),
                identity.orcid(), identity.issuer() == null ? "" : identity.issuer());
    }

}
