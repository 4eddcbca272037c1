package org.ziggurat.auth.clients;

import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

/** Applications (OAuth clients) of their owners: validation, secrets shown once, deletion revokes all. */
@ApplicationScoped
public class ApplicationService {

    /** The shortest authorization an application may ask for: a minute. */
    static final int MIN_AUTHORIZATION_LIFETIME = 60;
    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ApplicationRepository applications;
    private final TokenCrypto crypto;
    private final AccessorRepository accessors;
    private final DirectoryClient directory;
    private final PlatformName platformName;
    private final AuthConfig config;
    private final Callers callers;
    private final Operators operators;

    ApplicationService(ApplicationRepository applications, TokenCrypto crypto, AccessorRepository accessors,
            @RestClient DirectoryClient directory, PlatformName platformName, AuthConfig config, Callers callers,
            Operators operators) {
        this.callers = callers;
        this.operators = operators;
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
        return adminCaller().map(Caller::requireUser);
    }

    /** The caller, when a person with the admin scope (as {@link #admin}). */
    public Uni<Caller> adminCaller() {
        return callers.current().invoke(c -> c.requireUserWithScope(ScopeNames.ADMIN));
    }

    /** Through /applications: only an operator's own token ({@link Operators}) may give it the platform's name. */
    public Uni<Created> create(Caller caller, ApplicationFields body) {
        boolean operator = operators.actsAsOperator(caller);
        return create(caller.requireUser(), body, null, operator, operator);
    }

    /**
     * A client that registers itself (RFC 7591): never with the platform's name, whoever's token it
     * brings. The token may be an operator's issued to any application that asked for admin; an
     * operator names an application after the platform through /applications, with their own token.
     */
    public Uni<Created> create(long owner, ApplicationFields f, ApplicationRepository.Registration registration,
            boolean operatorRegistered) {
        return create(owner, f, registration, false, operatorRegistered);
    }

    /** {@code operatorRegistered}: an operator (or the initial access token) registers it, trusted with prompt=none's answers. */
    private Uni<Created> create(long owner, ApplicationFields f, ApplicationRepository.Registration registration,
            boolean mayTakeThePlatformsName, boolean operatorRegistered) {
        refuseThePlatformsName(mayTakeThePlatformsName, f.name());
        checkAuthorizationLifetime(f);
        boolean confidential = f.confidential() == null || f.confidential();
        refusePrivateUseSchemes(confidential, f.redirectUris());
        // A client that proves itself with its keys (private_key_jwt) has no secret to leak.
        String secret = confidential && (registration == null || !RegisteredKeys.authenticatesWithKeys(registration.metadata()))
                ? crypto.newClientSecret() : null;
        return applications.insert(new ApplicationRepository.NewApplication(owner, f.name(), crypto.newClientId(),
                        secret == null ? null : crypto.hash(secret), confidential, f.redirectUris(), f.scopes(),
                        // Opt-in (RFC 9700 §2.4): off unless the owner asks for it.
                        Boolean.TRUE.equals(f.passwordGrant()), false, f.openId(null), registration,
                        f.refreshTokenAbsoluteLifetime(), operatorRegistered))
                .map(app -> new Created(app, secret))
                .invoke(c -> EVENTS.infof("event=application_created client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    /** PUT replaces every field; PATCH changes the fields it names. The kind of client never changes. */
    public Uni<ApplicationRow> update(Caller caller, long id, ApplicationFields body, boolean replace) {
        return update(caller.requireUser(), id, body, replace, null, operators.actsAsOperator(caller));
    }

    /**
     * A registered client's metadata replaced (RFC 7592 PUT) with its registration access token:
     * never to the platform's name (as {@link #create(long, ApplicationFields, ApplicationRepository.Registration)}).
     */
    public Uni<ApplicationRow> update(long owner, long id, ApplicationFields f, boolean replace,
            String registrationMetadata) {
        return update(owner, id, f, replace, registrationMetadata, false);
    }

    private Uni<ApplicationRow> update(long owner, long id, ApplicationFields f, boolean replace,
            String registrationMetadata, boolean mayTakeThePlatformsName) {
        checkAuthorizationLifetime(f);
        return owned(id, owner).chain(app -> {
            // A name an operator gave stays through the owner's other changes (a PUT sends it again).
            refuseThePlatformsName(mayTakeThePlatformsName || app.name().equals(f.name()), f.name());
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
                            : app.refreshTokenAbsoluteLifetime(), owner);
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
    private void checkAuthorizationLifetime(ApplicationFields f) {
        Integer seconds = f.refreshTokenAbsoluteLifetime();
        long platform = config.refreshTokenAbsoluteLifetime().toSeconds();
        if (seconds != null && (seconds < MIN_AUTHORIZATION_LIFETIME || seconds > platform)) {
            throw ProblemException.invalidField("refresh_token_absolute_lifetime", "must be a number of seconds from "
                    + MIN_AUTHORIZATION_LIFETIME + " to the platform's " + platform);
        }
    }

    /**
     * Only an operator may give an application the platform's own name, or one that reads as it
     * (through /applications, with their own token: {@link Operators#actsAsOperator}).
     */
    private void refuseThePlatformsName(boolean mayTakeIt, String name) {
        if (name != null && platformName.imitatedBy(name) && !mayTakeIt) {
            throw ProblemException.invalidField("name", "reads as the platform's own name (" + platformName.name()
                    + "), which only its operators may give an application");
        }
    }

    /**
     * An operator marks an application verified (or takes the mark away), whoever owns it; a
     * ProblemException 403 for anyone else, and for an operator's token issued to an application (a
     * third party an operator authorized with the admin scope would mark itself verified, then ask
     * anyone for the account scope); 404 when there is no such application.
     */
    public Uni<ApplicationRow> verify(Caller caller, long id, boolean verified) {
        long operator;
        try {
            operator = operators.require(caller, "verify applications");
        } catch (ProblemException refused) {
            return Uni.createFrom().failure(refused);
        }
        return applications.setVerified(id, verified, operator)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such application."))
                .invoke(app -> EVENTS.infof("event=application_%s client_id=%s operator_id=%d",
                        verified ? "verified" : "unverified", app.clientId(), operator));
    }

    public Uni<Created> resetSecret(long owner, long id) {
        return owned(id, owner).chain(app -> {
            if (!app.confidential()) {
                throw ProblemException.invalidField("confidential", "a public client has no secret");
            }
            String secret = crypto.newClientSecret();
            return applications.replaceSecret(id, crypto.hash(secret), owner).map(updated -> new Created(updated, secret));
        }).invoke(c -> EVENTS.infof("event=client_secret_reset client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    public Uni<Void> delete(long owner, long id) {
        return owned(id, owner).call(app -> unlinkOrganizations(app)).chain(app -> applications.delete(id, owner)
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
}
