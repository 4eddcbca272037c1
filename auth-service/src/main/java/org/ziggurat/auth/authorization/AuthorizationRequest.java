package org.ziggurat.auth.authorization;

import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.oauth.ClaimsRequest;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.RedirectUris;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;

/**
 * An authorization request (RFC 6749 §4.1.1) whose client and redirect URI are known good, so
 * that errors may now go back to the client. {@code params} are the request's own parameters, as
 * the pages carry them from step to step, with the redirect URI filled in when the client has
 * only one.
 */
public record AuthorizationRequest(ApplicationRow app, String redirectUri, Map<String, String> params, Instant pushedAt,
        String registeredBy) {

    public AuthorizationRequest(ApplicationRow app, String redirectUri, Map<String, String> params) {
        this(app, redirectUri, params, null, null);
    }

    /** A pushed request (RFC 9126), pushed at {@code at}: its parameters are the server's, not the front channel's. */
    AuthorizationRequest pushed(Instant at) {
        return new AuthorizationRequest(app, redirectUri, params, at, registeredBy);
    }

    /**
     * Who registered the application, for the pages to say, when no operator verified it; null for a
     * verified application.
     */
    AuthorizationRequest registeredBy(String who) {
        return new AuthorizationRequest(app, redirectUri, params, pushedAt, who);
    }

    /**
     * What the pages carry from step to step (hidden fields, the address after signing in): for a
     * pushed request only client_id and request_uri, since RFC 9126 pushes the rest exactly to keep
     * it out of the front channel; otherwise the request's parameters.
     */
    public Map<String, String> frontChannel() {
        if (requestUri() == null) {
            return params;
        }
        Map<String, String> reference = new LinkedHashMap<>();
        reference.put("client_id", params.get("client_id"));
        reference.put("request_uri", requestUri());
        return reference;
    }

    /**
     * Whether a session that began at {@code signedInAt} (the database's clock, as the push's time)
     * began after this pushed request was made, and so answers its prompt=login and max_age (which
     * the server keeps, and cannot drop from the request as {@link #afterSignIn()} does for one in
     * the address).
     */
    public boolean signedInSincePushed(Instant signedInAt) {
        return pushedAt != null && signedInAt.isAfter(pushedAt);
    }

    /** The parameters of the authorization request, in the order the pages carry them. */
    public static final List<String> PARAMETERS = List.of("response_type", "client_id", "redirect_uri", "scope",
            "state", "code_challenge", "code_challenge_method", "nonce", "prompt", "max_age", "acr_values", "request_uri",
            "resource", "dpop_jkt", "request", "claims");

    /** RFC 9126 §2.2: the prefix of the request_uri values this server makes. */
    public static final String REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

    /** The prompt values (OpenID Connect Core §3.1.2.1); select_account is taken as login: there is one account. */
    static final Set<String> PROMPTS = Set.of("none", "login", "consent", "select_account");
    static final int MAX_NONCE_LENGTH = 255;

    public String state() {
        return params.get("state");
    }

    public String scope() {
        return params.get("scope");
    }

    public String codeChallenge() {
        return params.get("code_challenge");
    }

    /** The request_uri of a pushed request (RFC 9126), whose stored parameters these are; null otherwise. */
    public String requestUri() {
        return params.get("request_uri");
    }

    /** The resources the request names (RFC 8707), space-delimited; null when none. */
    public String resource() {
        return params.get("resource");
    }

    /** The thumbprint of the DPoP key the code is to be bound to (RFC 9449 §10); null when none. */
    public String dpopJkt() {
        return params.get("dpop_jkt");
    }

    public String nonce() {
        return params.get("nonce");
    }

    /** The prompt values asked for. */
    public Set<String> prompts() {
        String prompt = params.get("prompt");
        return prompt == null ? Set.of() : Set.copyOf(Arrays.asList(prompt.trim().split(" +")));
    }

    /** Whether the person must sign in again whatever their session: prompt=login (or select_account). */
    public boolean forcesLogin() {
        Set<String> prompts = prompts();
        return prompts.contains("login") || prompts.contains("select_account");
    }

    /**
     * OpenID Connect's acr_values: the classes of sign-in the client asks for, space-delimited; null
     * when none. The same asked as the ID token's acr claim (Core §5.5.1.1) counts when acr_values
     * is absent.
     */
    public String acrValues() {
        String acrValues = params.get("acr_values");
        return acrValues != null ? acrValues : claims().acrValues();
    }

    /** The claims parameter (Core §5.5); {@link ClaimsRequest#NONE} when absent. Checked by {@link #openIdProblem()}. */
    public ClaimsRequest claims() {
        try {
            return ClaimsRequest.parse(params.get("claims"));
        } catch (IllegalArgumentException e) {
            return ClaimsRequest.NONE;
        }
    }

    /**
     * Whether a session of {@code personId} cannot answer this request: the client asks for the ID
     * token of another person (claims' sub value, Core §3.1.2.2), who must sign in instead.
     */
    public boolean asksForAnotherPerson(long personId) {
        String subject = claims().subject();
        return subject != null && !subject.equals(Long.toString(personId));
    }

    /**
     * Whether the client asks for a second factor that a session by {@code amr} did not pass, and
     * would not settle for less (REFEDS MFA asked, single-factor not).
     */
    public boolean asksForSecondFactor(java.util.List<String> amr) {
        return AuthenticationMethods.asksForMore(acrValues(), amr)
                && !Set.of(acrValues().trim().split(" +")).contains(AuthenticationMethods.ACR_SINGLE_FACTOR);
    }

    /** prompt=none: no page may be shown; an error goes back instead. */
    public boolean silent() {
        return prompts().contains("none");
    }

    /** Whether a session that began at {@code authTime} is too old for max_age. */
    public boolean tooOld(Instant authTime, Instant now) {
        String maxAge = params.get("max_age");
        return maxAge != null && authTime.plusSeconds(Long.parseLong(maxAge)).isBefore(now);
    }

    /**
     * What is wrong with the OpenID Connect parameters; null when nothing is. prompt=none goes
     * alone; max_age is a number of seconds.
     */
    String openIdProblem() {
        Set<String> prompts = prompts();
        if (params.get("prompt") != null) {
            if (!PROMPTS.containsAll(prompts)) {
                return "prompt may be none, login, consent or select_account.";
            }
            if (prompts.contains("none") && prompts.size() > 1) {
                return "prompt=none cannot be combined with other values.";
            }
        }
        String acrValues = params.get("acr_values");
        if (acrValues != null && acrValues.length() > 255) {
            return "acr_values is too long.";
        }
        try {
            ClaimsRequest.parse(params.get("claims"));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        String maxAge = params.get("max_age");
        if (maxAge != null && !maxAge.matches("[0-9]{1,9}")) {
            return "max_age must be a number of seconds.";
        }
        String nonce = nonce();
        if (nonce != null && (nonce.length() > MAX_NONCE_LENGTH || nonce.chars().anyMatch(c -> c < 0x20 || c == 0x7f))) {
            return "nonce must be at most " + MAX_NONCE_LENGTH + " printable characters.";
        }
        return null;
    }

    /**
     * The request as it continues once the person has just signed in: a fresh sign-in answers
     * prompt=login and max_age, so they are not asked again (which would sign in forever).
     */
    public Map<String, String> afterSignIn() {
        if (requestUri() != null) {
            return frontChannel();
        }
        Map<String, String> next = new LinkedHashMap<>(params);
        next.remove("max_age");
        Set<String> prompts = new java.util.TreeSet<>(prompts());
        prompts.remove("login");
        prompts.remove("select_account");
        if (prompts.isEmpty()) {
            next.remove("prompt");
        } else {
            next.put("prompt", String.join(" ", prompts));
        }
        return next;
    }

    /**
     * The client and redirect URI of these parameters checked against the application: null when
     * either is unknown (never a redirect then: RFC 9700 §4.11, no open redirector).
     */
    static AuthorizationRequest of(ApplicationRow app, Map<String, String> params) {
        if (app == null || app.ownerId() == null) {
            return null;
        }
        String redirectUri = params.get("redirect_uri");
        if (redirectUri == null && app.redirectUris().size() == 1) {
            redirectUri = app.redirectUris().get(0);
        }
        if (redirectUri == null || !RedirectUris.registered(app.redirectUris(), redirectUri)) {
            return null;
        }
        Map<String, String> all = new LinkedHashMap<>(params);
        all.put("redirect_uri", redirectUri);
        return new AuthorizationRequest(app, redirectUri, all);
    }

    /** Whether a client id is worth looking up at all. */
    static boolean plausibleClient(Map<String, String> params) {
        return ClientCredentials.plausibleClientId(params.get("client_id"));
    }
}
