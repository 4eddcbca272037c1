package org.ziggurat.auth.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The person's claims by scope (OpenID Connect Core §5.4): {@code sub} always; {@code profile}
 * adds name, given_name, family_name, preferred_username, picture, profile, website, locale,
 * zoneinfo and updated_at (each the directory holds; those the person did not give are left out;
 * no middle_name, nickname, gender or birthdate: the directory holds none); {@code email} adds
 * email and email_verified; the research scopes add their claims ({@link ResearchClaims}).
 */
public final class UserInfoClaims {

    /** Every claim this provider issues, in ID tokens or at userinfo (Discovery's claims_supported). */
    public static final List<String> SUPPORTED = java.util.stream.Stream.concat(java.util.stream.Stream.of("iss", "sub", "aud",
            "exp", "iat", "auth_time", "nonce", "azp", "amr", "acr", "at_hash", "name", "given_name", "family_name",
            "preferred_username", "picture", "profile", "website", "locale", "zoneinfo", "updated_at", "email",
            "email_verified"), ResearchClaims.SUPPORTED.stream()).toList();

    private UserInfoClaims() {
    }

    /** The directory's fields of a person, as userinfo maps them; the last five null when the person gave none. */
    public record Person(long id, String username, String displayName, String picture, String profilePage, String email,
            Instant updatedAt, boolean emailVerified, ResearchClaims.Person research, String givenName, String familyName,
            String website, String locale, String zoneinfo) {

        /** A person who gave none of the optional profile claims. */
        public Person(long id, String username, String displayName, String picture, String profilePage, String email,
                Instant updatedAt, boolean emailVerified, ResearchClaims.Person research) {
            this(id, username, displayName, picture, profilePage, email, updatedAt, emailVerified, research, null, null,
                    null, null, null);
        }
    }

    public static Map<String, Object> of(Person person, Collection<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", Long.toString(person.id()));
        if (scopes.contains("profile")) {
            putIfPresent(claims, "name", person.displayName());
            putIfPresent(claims, "given_name", person.givenName());
            putIfPresent(claims, "family_name", person.familyName());
            claims.put("preferred_username", person.username());
            putIfPresent(claims, "picture", person.picture());
            putIfPresent(claims, "profile", person.profilePage());
            putIfPresent(claims, "website", person.website());
            putIfPresent(claims, "locale", person.locale());
            putIfPresent(claims, "zoneinfo", person.zoneinfo());
            if (person.updatedAt() != null) {
                claims.put("updated_at", person.updatedAt().getEpochSecond());
            }
        }
        if (scopes.contains("email") && person.email() != null) {
            claims.put("email", person.email());
            // True once its owner followed the link mailed to it (and false again after a change).
            claims.put("email_verified", person.emailVerified());
        }
        claims.putAll(ResearchClaims.of(person.research(), scopes));
        return claims;
    }

    private static void putIfPresent(Map<String, Object> claims, String name, String value) {
        if (value != null && !value.isEmpty()) {
            claims.put(name, value);
        }
    }
}
