package org.ziggurat.auth.federation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * GitHub's OAuth 2.0 (it has no OpenID Connect for people): the authorization code with state and
 * PKCE, the token endpoint asked for JSON, then the user API for the account ({@code id}, which
 * never changes, is the subject; {@code login}, which may, is only proposed as a username) and
 * its addresses, of which only the primary one that GitHub verified counts as verified. Without an
 * ID token nothing says how GitHub signed the person in: no methods are carried.
 */
final class GitHubUpstream implements Upstream {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final FederationSettings.Provider settings;
    private final Duration timeout;
    private final HttpClient http;

    GitHubUpstream(String id, FederationSettings.Provider settings, Duration timeout) {
        this.id = id;
        this.settings = settings;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
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
            return Uni.createFrom().failure(new Refused("the provider answered " + answer.error()));
        }
        if (answer.code() == null || answer.code().isBlank()) {
            return Uni.createFrom().failure(new Refused("no code in the provider's answer"));
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("client_id", settings.clientId());
        settings.clientSecret().ifPresent(secret -> form.put("client_secret", secret));
        form.put("code", answer.code());
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", attempt.codeVerifier());
        HttpRequest tokenRequest = HttpRequest.newBuilder(URI.create(settings.tokenEndpoint())).timeout(timeout)
                .header("Accept", "application/json").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build();
        return call(tokenRequest).chain(token -> {
            String accessToken = token.path("access_token").asText(null);
            if (accessToken == null) {
                return Uni.createFrom().failure(new Refused("the token endpoint refused the code: "
                        + token.path("error").asText("no access_token")));
            }
            return call(api("/user", accessToken)).chain(user -> call(api("/user/emails", accessToken))
                    .map(emails -> identity(user, emails)));
        });
    }

    /** The identity from GitHub's user and its addresses. */
    UpstreamIdentity identity(JsonNode user, JsonNode emails) {
        if (!user.path("id").canConvertToLong()) {
            throw new Refused("GitHub's user has no id");
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
                verified, List.of(), null, List.of());
    }

    private HttpRequest api(String path, String accessToken) {
        return HttpRequest.newBuilder(URI.create(settings.apiBase() + path)).timeout(timeout)
                .header("Accept", "application/vnd.github+json").header("X-GitHub-Api-Version", "2022-11-28")
                .header("Authorization", "Bearer " + accessToken).GET().build();
    }

    private Uni<JsonNode> call(HttpRequest request) {
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .onFailure(IOException.class).transform(e -> new DependencyUnavailable("GitHub cannot be reached", e))
                .map(response -> {
                    if (response.statusCode() >= 500) {
                        throw new DependencyUnavailable("GitHub answered " + response.statusCode(), null);
                    }
                    if (response.statusCode() != 200) {
                        throw new Refused("GitHub answered " + response.statusCode() + " to " + request.uri().getPath());
                    }
                    try {
                        return JSON.readTree(response.body());
                    } catch (IOException e) {
                        throw new Refused("GitHub's answer is not JSON", e);
                    }
                });
    }

    private static String form(Map<String, String> values) {
        return values.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
