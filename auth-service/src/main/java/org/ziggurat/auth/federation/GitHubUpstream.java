package org.ziggurat.auth.federation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * GitHub's OAuth 2.0 (it has no OpenID Connect for people): the authorization code with state and
 * PKCE, the token endpoint asked for JSON, then the user API for the account ({@code id}, which
 * never changes, is the subject; {@code login}, which may, is only proposed as a username) and
 * its addresses, of which only the primary one that GitHub verified counts as verified. Without an
 * ID token nothing says how GitHub signed the person in: no methods are carried. Its answer has no
 * {@code iss}: its own redirect URI ({@code /account/federation/callback/<id>}) is what tells its
 * answers from another provider's (RFC 9700 §4.4.2). Calls go through {@link ProviderHttp}.
 */
final class GitHubUpstream implements Upstream {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final FederationSettings.Provider settings;
    private final ProviderHttp http;

    GitHubUpstream(String id, FederationSettings.Provider settings, ProviderHttp http) {
        this.id = id;
        this.settings = settings;
        this.http = http;
    }

    /** GitHub's API base: where the account's id comes from. */
    @Override
    public String issuer() {
        return settings.apiBase();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String displayName() {
        return settings.displayName().orElse("GitHub");
    }

    @Override
    public boolean newAccounts() {
        return settings.newAccounts();
    }

    @Override
    public Uni<String> authorizationUrl(Attempt attempt, String redirectUri) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("client_id", settings.clientId());
        query.put("redirect_uri", redirectUri);
        query.put("scope", settings.scopes().orElse("read:user user:email"));
        query.put("state", attempt.state());
        query.put("code_challenge", Pkce.s256(attempt.codeVerifier()));
        query.put("code_challenge_method", "S256");
        query.put("allow_signup", "false");
        return Uni.createFrom().item(settings.authorizationEndpoint() + "?" + form(query));
    }

    @Override
    public Uni<UpstreamIdentity> identity(Answer answer, Attempt attempt, String redirectUri) {
        if (answer.error() != null) {
            return Uni.createFrom().failure(Refused.providerError(answer.error()));
        }
        if (answer.code() == null || answer.code().isBlank()) {
            return Uni.createFrom().failure(new Refused(Reason.NO_CODE, "no code in the provider's answer"));
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("client_id", settings.clientId());
        settings.clientSecret().ifPresent(secret -> form.put("client_secret", secret));
        form.put("code", answer.code());
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", attempt.codeVerifier());
        return call("POST", settings.tokenEndpoint(), Map.of("Accept", "application/json",
                "Content-Type", "application/x-www-form-urlencoded"), form(form)).chain(token -> {
            String accessToken = token.path("access_token").asText(null);
            if (accessToken == null) {
                return Uni.createFrom().failure(new Refused(Reason.CODE_REFUSED, "the token endpoint refused the code"));
            }
            return api("/user", accessToken).chain(user -> api("/user/emails", accessToken)
                    .map(emails -> identity(user, emails)));
        });
    }

    /** The identity from GitHub's user and its addresses. */
    UpstreamIdentity identity(JsonNode user, JsonNode emails) {
        if (!user.path("id").canConvertToLong()) {
            throw new Refused(Reason.NO_SUBJECT, "GitHub's user has no id");
        }
        String email = null;
        boolean verified = false;
        for (JsonNode address : emails) {
            if (address.path("primary").asBoolean(false) && address.path("email").isTextual()) {
                email = address.path("email").asText();
                verified = address.path("verified").asBoolean(false);
            }
        }
        String name = user.path("name").isTextual() && !user.path("name").asText().isBlank() ? user.path("name").asText() : null;
        return new UpstreamIdentity(id, Long.toString(user.path("id").asLong()), user.path("login").asText(null), name, email,
                verified, List.of(), null, List.of(), issuer());
    }

    private Uni<JsonNode> api(String path, String accessToken) {
        return call("GET", settings.apiBase() + path, Map.of("Accept", "application/vnd.github+json",
                "X-GitHub-Api-Version", "2022-11-28", "Authorization", "Bearer " + accessToken), null);
    }

    private Uni<JsonNode> call(String method, String url, Map<String, String> headers, String body) {
        return http.send(method, url, headers, body).map(response -> {
            if (response.status() >= 500) {
                throw new DependencyUnavailable("GitHub answered " + response.status(), null);
            }
            if (response.status() != 200) {
                throw new Refused(Reason.API_REFUSED, "GitHub answered " + response.status());
            }
            try {
                return JSON.readTree(response.body());
            } catch (IOException e) {
                throw new Refused(Reason.API_ANSWER_MALFORMED, "GitHub's answer is not JSON", e);
            }
        });
    }

    private static String form(Map<String, String> values) {
        return values.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
