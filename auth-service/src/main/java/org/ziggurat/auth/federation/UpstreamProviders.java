package org.ziggurat.auth.federation;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The providers people may sign in with: the deployment's configuration ({@link FederationSettings}),
 * checked at start (a bad id, kind or issuer stops the service rather than a sign-in later), and
 * the ones operators added through the API ({@link ProviderRepository}), which every replica reads
 * again every {@code ziggurat.auth.federation.refresh-every} and the replica that made a change at
 * once. A configured id wins over a stored one. A stored provider is built again only when its row
 * changed, so its discovery document and keys stay cached meanwhile.
 */
@ApplicationScoped
public class UpstreamProviders {

    private static final Logger LOG = Logger.getLogger(UpstreamProviders.class);
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    private record Built(Upstream upstream, Instant version) {
    }

    private final Map<String, Upstream> providers;
    private final FederationSettings settings;
    private final ProviderRepository repository;
    private final TokenCrypto crypto;
    private final ProviderHttp http;
    private volatile Map<String, Built> stored = Map.of();

    UpstreamProviders(FederationSettings settings, ProviderRepository repository, TokenCrypto crypto, ProviderHttp http) {
        this.settings = settings;
        this.repository = repository;
        this.crypto = crypto;
        this.http = http;
        Map<String, Upstream> configured = new TreeMap<>();
        settings.providers().forEach((id, provider) -> configured.put(id, create(id, provider, settings, http)));
        this.providers = Collections.unmodifiableMap(configured);
    }

    /** Whether the deployment's configuration names this id (the API may not change it). */
    public boolean configured(String id) {
        return providers.containsKey(id);
    }

    /** Reads the operators' providers again (a row that no longer makes a provider is left out, and logged). */
    public Uni<Void> refresh() {
        return repository.all().invoke(rows -> {
            Map<String, Built> current = stored;
            Map<String, Built> next = new HashMap<>();
            for (ProviderRepository.Stored row : rows) {
                if (providers.containsKey(row.id())) {
                    continue;
                }
                Built kept = current.get(row.id());
                if (kept != null && kept.version().equals(row.updatedAt())) {
                    next.put(row.id(), kept);
                    continue;
                }
                try {
                    String secret = row.secretSealed() == null ? null : crypto.decrypt(row.secretSealed());
                    next.put(row.id(), new Built(create(row.id(), new StoredProvider(row, secret), settings, http), row.updatedAt()));
                } catch (RuntimeException unusable) {
                    LOG.warnf("provider %s is not offered: %s", row.id(), unusable.getMessage());
                }
            }
            stored = Map.copyOf(next);
        }).replaceWithVoid();
    }

    @Scheduled(every = "${ziggurat.auth.federation.refresh-every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refreshEvery() {
        return refresh().onFailure().invoke(e -> LOG.debugf("providers not read again: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }

    /** The rules of {@link #create(String, FederationSettings.Provider, FederationSettings, ProviderHttp)} alone: a provider that makes no calls. */
    static Upstream create(String id, FederationSettings.Provider provider, FederationSettings settings) {
        return create(id, provider, settings, null);
    }

    /**
     * A provider from its settings, whose form is checked here (the id, kind, client authentication,
     * and each URL by the address rules' form: https, a host, no credentials or fragment); every
     * call it makes is checked again against the addresses its host resolves to ({@link ProviderHttp}).
     */
    static Upstream create(String id, FederationSettings.Provider provider, FederationSettings settings, ProviderHttp http) {
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
                yield new OidcUpstream(id, provider, false, http);
            }
            case "orcid" -> {
                provider.issuer().ifPresent(issuer -> requireHttpUrl(prefix + "issuer", issuer));
                yield new OidcUpstream(id, provider, true, http);
            }
            case "github" -> {
                requireHttpUrl(prefix + "authorization-endpoint", provider.authorizationEndpoint());
                requireHttpUrl(prefix + "token-endpoint", provider.tokenEndpoint());
                requireHttpUrl(prefix + "api-base", provider.apiBase());
                yield new GitHubUpstream(id, provider, http);
            }
            default -> throw new IllegalStateException(prefix + "kind is oidc, orcid or github, not " + provider.kind());
        };
    }

    private static void requireHttpUrl(String name, String value) {
        String fault = ProviderHttp.formFault(value);
        if (fault != null) {
            throw new IllegalStateException(name + " " + fault);
        }
    }

    /** The provider of an id; null when none is configured or stored so. */
    public Upstream find(String id) {
        if (id == null) {
            return null;
        }
        Upstream configured = providers.get(id);
        if (configured != null) {
            return configured;
        }
        Built built = stored.get(id);
        return built == null ? null : built.upstream();
    }

    /** Every provider, by id. */
    public List<Upstream> all() {
        Map<String, Upstream> all = new TreeMap<>();
        stored.forEach((id, built) -> all.put(id, built.upstream()));
        all.putAll(providers);
        return new ArrayList<>(all.values());
    }
}
