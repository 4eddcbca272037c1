package org.ziggurat.auth.federation;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.Operators;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The operators' API of identity providers: the platform's operators ({@code ziggurat.auth.operators},
 * with their own token and the admin scope, {@link Operators}) list every provider, add or replace
 * one, and remove one. The deployment's configured providers are listed but not changed here. A client secret is written, never read
 * back: it is sealed at rest, and a replacement that names none keeps the stored one.
 */
@ApplicationScoped
public class ProviderAdministration {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    /** A provider as the API shows it: never its secret, only whether it has one. */
    @RegisterForReflection
    public record ProviderView(String id, String kind, String displayName, String issuer, String clientId,
            boolean clientSecretSet, String clientAuth, String scopes, String orcidClaim, boolean newAccounts,
            String authorizationEndpoint, String tokenEndpoint, String apiBase, List<String> assurance, String source) {
    }

    public record Put(ProviderView provider, boolean created) {
    }

    private final Callers callers;
    private final Operators operators;
    private final FederationSettings settings;
    private final UpstreamProviders providers;
    private final ProviderRepository repository;
    private final TokenCrypto crypto;
    private final ProviderHttp http;

    ProviderAdministration(Callers callers, Operators operators, FederationSettings settings, UpstreamProviders providers,
            ProviderRepository repository, TokenCrypto crypto, ProviderHttp http) {
        this.http = http;
        this.callers = callers;
        this.operators = operators;
        this.settings = settings;
        this.providers = providers;
        this.repository = repository;
        this.crypto = crypto;
    }

    private Uni<Long> operator() {
        return callers.current().map(caller -> operators.require(caller, "manage identity providers"));
    }

    public Uni<List<ProviderView>> list() {
        return operator().chain(operator -> repository.all()).map(stored -> {
            List<ProviderView> all = new ArrayList<>();
            settings.providers().forEach((id, p) -> all.add(view(id, p, "configuration")));
            stored.stream().filter(row -> !providers.configured(row.id()))
                    .forEach(row -> all.add(view(row.id(), new StoredProvider(row, row.secretSealed() == null ? null : ""), "api")));
            all.sort(java.util.Comparator.comparing(ProviderView::id));
            return all;
        });
    }

    /**
     * Adds or replaces a provider: 409 for a configured id, 422 naming what is wrong (an endpoint
     * the address rules refuse: a private or reserved address, credentials, plain http). A
     * replacement of another kind, issuer or endpoints is a new provider under the id: it never
     * gets the stored secret, and the identities linked through the old one do not sign in through
     * it (each link records its issuer).
     */
    public Uni<Put> put(String id, JsonNode body) {
        return operator().chain(operator -> {
            if (id == null || !ID.matcher(id).matches()) {
                throw ProblemException.notFound("A provider's id is lower-case letters, digits and hyphens, at most 40.");
            }
            if (providers.configured(id)) {
                throw ProblemException.conflict("The deployment's configuration sets this provider; change it there.");
            }
            FieldChecks.object(body);
            FieldChecks errors = new FieldChecks();
            String kind = errors.requiredOneOf(body.get("kind"), "kind", List.of("oidc", "orcid", "github"));
            String displayName = errors.line(body.get("display_name"), "display_name", 100, false);
            String issuer = errors.string(body.get("issuer"), "issuer", 500, false);
            String clientId = errors.line(body.get("client_id"), "client_id", 200, true);
            String secret = errors.string(body.get("client_secret"), "client_secret", 500, false);
            String clientAuth = errors.oneOf(body.get("client_auth"), "client_auth", List.of("basic", "post"), "basic");
            String scopes = errors.line(body.get("scopes"), "scopes", 500, false);
            String orcidClaim = errors.line(body.get("orcid_claim"), "orcid_claim", 100, false);
            Boolean newAccounts = errors.bool(body.get("new_accounts"), "new_accounts");
            String authorizationEndpoint = errors.string(body.get("authorization_endpoint"), "authorization_endpoint", 500, false);
            String tokenEndpoint = errors.string(body.get("token_endpoint"), "token_endpoint", 500, false);
            String apiBase = errors.string(body.get("api_base"), "api_base", 500, false);
            String assurance = assurance(body.get("assurance"), errors);
            errors.throwIfFailed("The provider is not valid.");
            ProviderRepository.Stored stored = new ProviderRepository.Stored(id, kind, displayName, issuer, clientId,
                    secret == null ? null : crypto.encrypt(secret), clientAuth, scopes, orcidClaim,
                    newAccounts == null || newAccounts, authorizationEndpoint, tokenEndpoint, apiBase, assurance, null);
            StoredProvider provider = new StoredProvider(stored, secret);
            try {
                // The rules a configured provider is held to at start, before anything is kept.
                UpstreamProviders.create(id, provider, settings);
            } catch (IllegalStateException refused) {
                throw ProblemException.invalidField("provider", refused.getMessage()
                        .replace("ziggurat.auth.federation.providers." + id + ".", ""));
            }
            return reachable(provider).chain(() -> repository.put(stored, secret == null, operator)).call(providers::refresh).map(written -> {
                EVENTS.infof("event=provider_%s provider=%s operator_id=%d identity_changed=%s secret_set=%s",
                        written.created() ? "added" : "changed", id, operator, written.identityChanged(), written.secretSet());
                return new Put(view(id, new StoredProvider(stored, written.secretSet() ? "" : null), "api"), written.created());
            });
        });
    }

    /**
     * Every endpoint the platform will call, held to the webhook address rules before anything is
     * kept (and again before every call): the issuer whose discovery document is read, GitHub's
     * token endpoint and API. 422 naming the field.
     */
    private Uni<Void> reachable(StoredProvider provider) {
        java.util.Map<String, String> called = new java.util.LinkedHashMap<>();
        if ("github".equals(provider.kind())) {
            called.put("token_endpoint", provider.tokenEndpoint());
            called.put("api_base", provider.apiBase());
        } else {
            called.put("issuer", provider.issuer().orElse("https://orcid.org"));
        }
        Uni<Void> checked = Uni.createFrom().voidItem();
        for (var endpoint : called.entrySet()) {
            checked = checked.chain(() -> http.refusal(endpoint.getValue()).invoke(refusal -> {
                if (refusal != null) {
                    throw ProblemException.invalidField(endpoint.getKey(), "is not a provider the platform may call: " + refusal);
                }
            })).replaceWithVoid();
        }
        return checked;
    }

    /** The eduperson_assurance values a provider may assert: a list of URIs without spaces, at most 20; space-separated, or null. */
    private static String assurance(JsonNode node, FieldChecks errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        List<String> values = new ArrayList<>();
        if (node.isArray() && node.size() <= 20) {
            for (JsonNode value : node) {
                if (!value.isTextual() || value.asText().isBlank() || value.asText().length() > 255
                        || value.asText().chars().anyMatch(Character::isWhitespace)) {
                    values = null;
                    break;
                }
                values.add(value.asText());
            }
        } else {
            values = null;
        }
        if (values == null) {
            errors.add("assurance", "must be a list of at most 20 URIs without spaces");
            return null;
        }
        return values.isEmpty() ? null : String.join(" ", values);
    }

    /** 404 when there is none; 409 for a configured one. Links people made with it stay (they may unlink them). */
    public Uni<Void> delete(String id) {
        return operator().chain(operator -> {
            if (providers.configured(id)) {
                throw ProblemException.conflict("The deployment's configuration sets this provider; change it there.");
            }
            return repository.delete(id, operator).call(providers::refresh).map(deleted -> {
                if (!deleted) {
                    throw ProblemException.notFound("No such provider.");
                }
                EVENTS.infof("event=provider_removed provider=%s operator_id=%d", id, operator);
                return null;
            });
        });
    }

    private static ProviderView view(String id, FederationSettings.Provider p, String source) {
        boolean github = "github".equals(p.kind());
        return new ProviderView(id, p.kind(), p.displayName().orElse(null), p.issuer().orElse(null), p.clientId(),
                p.clientSecret().isPresent(), p.clientAuth(), p.scopes().orElse(null), p.orcidClaim().orElse(null),
                p.newAccounts(), github ? p.authorizationEndpoint() : null, github ? p.tokenEndpoint() : null,
                github ? p.apiBase() : null, p.assurance().orElse(List.of()), source);
    }
}
