package org.ziggurat.auth.federation;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The providers the operator configured ({@link FederationSettings}), checked at start: a bad id,
 * kind or issuer stops the service rather than a sign-in later.
 */
@ApplicationScoped
public class UpstreamProviders {

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    private final Map<String, Upstream> providers;

    UpstreamProviders(FederationSettings settings) {
        Map<String, Upstream> configured = new TreeMap<>();
        settings.providers().forEach((id, provider) -> configured.put(id, create(id, provider, settings)));
        this.providers = Collections.unmodifiableMap(configured);
    }

    static Upstream create(String id, FederationSettings.Provider provider, FederationSettings settings) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalStateException("ziggurat.auth.federation.providers." + id
                    + ": a provider's id is lower-case letters, digits and hyphens (at most 40)");
        }
        String prefix = "ziggurat.auth.federation.providers." + id + ".";
        if (!List.of("basic", "post").contains(provider.clientAuth())) {
            throw new IllegalStateException(prefix + "client-auth is basic or post");
        }
        return switch (provider.kind()) {
            case "oidc" -> {
                String issuer = provider.issuer().orElseThrow(() -> new IllegalStateException(prefix + "issuer is required"));
                requireHttpUrl(prefix + "issuer", issuer);
                yield new OidcUpstream(id, provider, false, settings.timeout());
            }
            case "orcid" -> {
                provider.issuer().ifPresent(issuer -> requireHttpUrl(prefix + "issuer", issuer));
                yield new OidcUpstream(id, provider, true, settings.timeout());
            }
            case "github" -> {
                requireHttpUrl(prefix + "authorization-endpoint", provider.authorizationEndpoint());
                requireHttpUrl(prefix + "token-endpoint", provider.tokenEndpoint());
                requireHttpUrl(prefix + "api-base", provider.apiBase());
                yield new GitHubUpstream(id, provider, settings.timeout());
            }
            default -> throw new IllegalStateException(prefix + "kind is oidc, orcid or github, not " + provider.kind());
        };
    }

    private static void requireHttpUrl(String name, String value) {
        if (!value.startsWith("https://") && !value.startsWith("http://")) {
            throw new IllegalStateException(name + " must be an https URL");
        }
    }

    /** The provider of an id; null when none is configured so. */
    public Upstream find(String id) {
        return id == null ? null : providers.get(id);
    }

    /** Every provider, by id. */
    public List<Upstream> all() {
        return new ArrayList<>(providers.values());
    }
}
