package org.ziggurat.auth.oauth;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The person's claims by scope (OpenID Connect Core §5.4): {@code sub} always; {@code profile}
 * adds name, preferred_username, picture, profile and updated_at; {@code email} adds email and email_verified;
 * the research scopes add their claims ({@link ResearchClaims}).
 */
public final class UserInfoClaims {

    /** Every claim this provider issues, in ID tokens or at userinfo (Discovery's claims_supported). */
    public static final List<String> SUPPORTED = java.util.stream.Stream.concat(java.util.stream.Stream.of("iss", "sub", "aud",
            "exp", "iat", "auth_time", "nonce", "azp", "amr", "acr", "at_hash", "name", "preferred_username", "picture",
            "profile", "updated_at", "email", "email_verified"), ResearchClaims.SUPPORTED.stream()).toList();

    private UserInfoClaims() {
    }

    /** The directory's fields of a person, as userinfo maps them. */
    public record Person(long id, String username, String displayName, String picture, String profilePage, String email,
            Instant updatedAt, boolean emailVerified, ResearchClaims.Person research) {
    }

    public static Map<String, Object> of(Person person, Collection<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", Long.toString(person.id()));
        if (scopes.contains("profile")) {
            putIfPresent(claims, "name", person.displayName());
            claims.put("preferred_username", person.username());
            putIfPresent(claims, "picture", person.picture());
            putIfPresent(claims, "profile", person.profilePage());
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
