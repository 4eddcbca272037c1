package org.ziggurat.auth.clients;

import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;

import java.util.LinkedHashSet;
import java.util.List;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

/** Applications (OAuth clients) of their owners: validation, secrets shown once, deletion revokes all. */
@ApplicationScoped
public class ApplicationService {

    public static final int MAX_REDIRECT_URIS = 10;
    /** The shortest authorization an application may ask for: a minute. */
    static final int MIN_AUTHORIZATION_LIFETIME = 60;
    /** The algorithms of ID tokens (the signing key series). */
    public static final List<String> ID_TOKEN_ALGORITHMS = List.of("RS256", "ES256");
    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ApplicationRepository applications;
    private final TokenCrypto crypto;
    private final AccessorRepository accessors;
    private final DirectoryClient directory;
    private final PlatformName platformName;
    private final AuthConfig config;
    private final Callers callers;

    ApplicationService(ApplicationRepository applications, TokenCrypto crypto, AccessorRepository accessors,
            @RestClient DirectoryClient directory, PlatformName platformName, AuthConfig config, Callers callers) {
        this.callers = callers;
        this.platformName = platformName;
        this.config = config;
        this.applications = applications;
        this.crypto = crypto;
        this.accessors = accessors;
        this.directory = directory;
    }

    public record Created(ApplicationRow application, String secret) {
    }

    /**
     * The caller, when a person with the admin scope: who manages applications through
     * /applications (a registration's owner comes from its own token instead).
     */
    public Uni<Long> admin() {
        return callers.current().map(c -> c.requireUserWithScope(ScopeNames.ADMIN));
    }

    /** The fields of a create or full replace, validated. */
    record Fields(String name, List<String> redirectUris, List<String> scopes, Boolean confidential, Boolean passwordGrant,
            List<String> postLogoutRedirectUris, String idTokenAlg, Boolean requirePushedRequests,
            Integer refreshTokenAbsoluteLifetime) {

        /** These fields over the application's (or the defaults, for a new one) where they are left out. */
        ApplicationRepository.OpenIdSettings openId(ApplicationRow app) {
            ApplicationRepository.OpenIdSettings before = app == null ? ApplicationRepository.OpenIdSettings.DEFAULTS
                    : new ApplicationRepository.OpenIdSettings(app.postLogoutRedirectUris(), app.idTokenAlg(),
                            app.requirePushedRequests());
            return new ApplicationRepository.OpenIdSettings(
                    postLogoutRedirectUris != null ? postLogoutRedirectUris : before.postLogoutRedirectUris(),
                    idTokenAlg != null ? idTokenAlg : before.idTokenAlg(),
                    requirePushedRequests != null ? requirePushedRequests : before.requirePushedRequests());
        }
    }

    public Uni<Created> create(long owner, JsonNode body) {
        return create(owner, body, null);
    }

    /** {@code registration}: for a client that registers itself (RFC 7591), else null. */
    public Uni<Created> create(long owner, JsonNode body, ApplicationRepository.Registration registration) {
        Fields f = fields(body, true);
        refuseThePlatformsName(owner, f.name());
        checkAuthorizationLifetime(f);
        boolean confidential = f.confidential() == null || f.confidential();
        refusePrivateUseSchemes(confidential, f.redirectUris());
        String secret = confidential ? crypto.newClientSecret() : null;
        return applications.insert(new ApplicationRepository.NewApplication(owner, f.name(), crypto.newClientId(),
                        secret == null ? null : crypto.hash(secret), confidential, f.redirectUris(), f.scopes(),
                        // Opt-in (RFC 9700 §2.4): off unless the owner asks for it.
                        Boolean.TRUE.equals(f.passwordGrant()), false, f.openId(null), registration,
                        f.refreshTokenAbsoluteLifetime()))
                .map(app -> new Created(app, secret))
                .invoke(c -> EVENTS.infof("event=application_created client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    /** PUT replaces every field; PATCH changes the fields it names. The kind of client never changes. */
    public Uni<ApplicationRow> update(long owner, long id, JsonNode body, boolean replace) {
        return update(owner, id, body, replace, null);
    }

    /** {@code registrationMetadata}: a registered client's other metadata (RFC 7592 PUT), else null. */
    public Uni<ApplicationRow> update(long owner, long id, JsonNode body, boolean replace, String registrationMetadata) {
        Fields f = fields(body, replace);
        refuseThePlatformsName(owner, f.name());
        checkAuthorizationLifetime(f);
        return owned(id, owner).chain(app -> {
            if (f.confidential() != null && f.confidential() != app.confidential()) {
                throw ProblemException.invalidField("confidential", "cannot change: create a new application instead");
            }
            refusePrivateUseSchemes(app.confidential(), f.redirectUris());
            return applications.update(id, f.name() != null ? f.name() : app.name(),
                    f.redirectUris() != null ? f.redirectUris() : app.redirectUris(),
                    f.scopes() != null ? f.scopes() : app.scopes(),
                    f.passwordGrant() != null ? f.passwordGrant() : app.passwordGrant(),
                    // PUT replaces these too: left out, they are the defaults again.
                    f.openId(replace ? null : app), registrationMetadata,
                    f.refreshTokenAbsoluteLifetime() != null || replace ? f.refreshTokenAbsoluteLifetime()
                            : app.refreshTokenAbsoluteLifetime());
        });
    }

    /**
     * A private-use URI scheme (RFC 8252 §7.1) names an app on the person's device, which any app
     * can claim: only a public client, whose code PKCE binds to the one that asked, may use one.
     */
    private static void refusePrivateUseSchemes(boolean confidential, List<String> redirectUris) {
        if (!confidential || redirectUris == null) {
            return;
        }
        for (int i = 0; i < redirectUris.size(); i++) {
            if (RedirectUris.isPrivateUse(redirectUris.get(i))) {
                throw ProblemException.invalidField("redirect_uris[" + i + "]",
                        "a private-use URI scheme is for public clients (native apps, RFC 8252)");
            }
        }
    }

    /** An application's own authorization lifetime may only be shorter than the platform's. */
    private void checkAuthorizationLifetime(Fields f) {
        Integer seconds = f.refreshTokenAbsoluteLifetime();
        long platform = config.refreshTokenAbsoluteLifetime().toSeconds();
        if (seconds != null && (seconds < MIN_AUTHORIZATION_LIFETIME || seconds > platform)) {
            throw ProblemException.invalidField("refresh_token_absolute_lifetime", "must be a number of seconds from "
                    + MIN_AUTHORIZATION_LIFETIME + " to the platform's " + platform);
        }
    }

    /** Only an operator may give an application the platform's own name, or one that reads as it. */
    private void refuseThePlatformsName(long owner, String name) {
        if (name != null && platformName.imitatedBy(name) && !platformName.isOperator(owner)) {
            throw ProblemException.invalidField("name", "reads as the platform's own name (" + platformName.name()
                    + "), which only its operators may give an application");
        }
    }

    /**
     * An operator marks an application verified (or takes the mark away), whoever owns it; a
     * ProblemException 403 for anyone else, 404 when there is no such application.
     */
    public Uni<ApplicationRow> verify(long caller, long id, boolean verified) {
        if (!platformName.isOperator(caller)) {
            return Uni.createFrom().failure(ProblemException.forbidden("Only the platform's operators verify applications."));
        }
        return applications.setVerified(id, verified)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such application."))
                .invoke(app -> EVENTS.infof("event=application_%s client_id=%s operator_id=%d",
                        verified ? "verified" : "unverified", app.clientId(), caller));
    }

    public Uni<Created> resetSecret(long owner, long id) {
        return owned(id, owner).chain(app -> {
            if (!app.confidential()) {
                throw ProblemException.invalidField("confidential", "a public client has no secret");
            }
            String secret = crypto.newClientSecret();
            return applications.replaceSecret(id, crypto.hash(secret)).map(updated -> new Created(updated, secret));
        }).invoke(c -> EVENTS.infof("event=client_secret_reset client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    public Uni<Void> delete(long owner, long id) {
        return owned(id, owner).call(app -> unlinkOrganizations(app)).chain(app -> applications.delete(id)
                .invoke(() -> EVENTS.infof("event=application_deleted client_id=%s person_id=%d", app.clientId(), owner)))
                .replaceWithVoid();
    }

    /** The directory forgets the application's organization links, so no Organization lists it any more. */
    private Uni<Void> unlinkOrganizations(ApplicationRow app) {
        return accessors.ofApplication(app.id()).chain(all -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (var accessor : all) {
                if (accessor.kind().equals(AccessorRepository.ORGANIZATION)) {
                    chain = chain.call(() -> directory.unlink(accessor.subjectId(), app.clientId())
                            .onFailure(DirectoryClient.NotFound.class).recoverWithNull());
                }
            }
            return chain;
        });
    }

    /** The owner's applications. */
    public Uni<List<ApplicationRow>> ownedBy(long owner) {
        return applications.listOwnedBy(owner);
    }

    public Uni<ApplicationRow> owned(long id, long owner) {
        return applications.ownedBy(id, owner)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such application."));
    }

    static Fields fields(JsonNode body, boolean required) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String name = errors.line(body.get("name"), "name", 100, required);
        List<String> uris = uris(errors, body, "redirect_uris", 1, required, true);
        List<String> logoutUris = uris(errors, body, "post_logout_redirect_uris", 0, false, false);
        if (logoutUris != null && logoutUris.stream().anyMatch(RedirectUris::isOutOfBand)) {
            errors.add("post_logout_redirect_uris", "must be URIs of the application, not the out-of-band one");
        }
        List<String> scopes = null;
        JsonNode s = body.get("scopes");
        if (s != null && !s.isNull()) {
            if (!s.isTextual()) {
                errors.add("scopes", "must be a space-delimited string");
            } else {
                try {
                    scopes = List.copyOf(Scopes.parse(s.asText()));
                } catch (OAuthException e) {
                    errors.add("scopes", e.getMessage());
                }
            }
        } else if (required) {
            scopes = List.of();
        }
        Boolean confidential = errors.bool(body.get("confidential"), "confidential");
        Boolean passwordGrant = errors.bool(body.get("password_grant"), "password_grant");
        String idTokenAlg = null;
        JsonNode alg = body.get("id_token_signed_response_alg");
        if (alg != null && !alg.isNull()) {
            if (!alg.isTextual() || !ID_TOKEN_ALGORITHMS.contains(alg.asText())) {
                errors.add("id_token_signed_response_alg", "must be one of " + String.join(", ", ID_TOKEN_ALGORITHMS));
            } else {
                idTokenAlg = alg.asText();
            }
        }
        Boolean requirePushed = errors.bool(body.get("require_pushed_authorization_requests"),
                "require_pushed_authorization_requests");
        Integer authorizationLifetime = null;
        JsonNode lifetime = body.get("refresh_token_absolute_lifetime");
        if (lifetime != null && !lifetime.isNull()) {
            if (!lifetime.isIntegralNumber() || !lifetime.canConvertToInt()) {
                errors.add("refresh_token_absolute_lifetime", "must be a whole number of seconds");
            } else {
                authorizationLifetime = lifetime.intValue();
            }
        }
        errors.throwIfFailed("The application is not valid.");
        return new Fields(name, uris, scopes, confidential, passwordGrant, logoutUris, idTokenAlg, requirePushed,
                authorizationLifetime);
    }

    /** A list of 'min' to MAX_REDIRECT_URIS URIs as RedirectUris takes them; null when left out. */
    private static List<String> uris(FieldChecks errors, JsonNode body, String field, int min, boolean required,
            boolean nativeApps) {
        JsonNode u = body.get(field);
        if (u == null || u.isNull()) {
            if (required) {
                errors.add(field, "is required");
            }
            return null;
        }
        if (!u.isArray() || u.size() < min || u.size() > MAX_REDIRECT_URIS) {
            errors.add(field, "must be a list of " + min + " to " + MAX_REDIRECT_URIS + " URIs");
            return null;
        }
        LinkedHashSet<String> set = new LinkedHashSet<>();
        for (int i = 0; i < u.size(); i++) {
            JsonNode item = u.get(i);
            String problem = item.isTextual() ? RedirectUris.problem(item.asText(), nativeApps) : "must be a string";
            if (problem != null) {
                errors.add(field + "[" + i + "]", problem);
            } else {
                set.add(item.asText());
            }
        }
        return List.copyOf(set);
    }
}
