package org.ziggurat.auth.federation;

import java.util.Optional;

/** A provider an operator added, read as the deployment's configuration of one is: its secret opened. */
record StoredProvider(ProviderRepository.Stored stored, String secret) implements FederationSettings.Provider {

    @Override
    public String kind() {
        return stored.kind();
    }

    @Override
    public Optional<String> displayName() {
        return Optional.ofNullable(stored.displayName());
    }

    @Override
    public Optional<String> issuer() {
        return Optional.ofNullable(stored.issuer());
    }

    @Override
    public String clientId() {
        return stored.clientId();
    }

    @Override
    public Optional<String> clientSecret() {
        return Optional.ofNullable(secret);
    }

    @Override
    public String clientAuth() {
        return stored.clientAuth();
    }

    @Override
    public Optional<String> scopes() {
        return Optional.ofNullable(stored.scopes());
    }

    @Override
    public Optional<String> orcidClaim() {
        return Optional.ofNullable(stored.orcidClaim());
    }

    @Override
    public Optional<java.util.List<String>> assurance() {
        return stored.assurance() == null || stored.assurance().isBlank() ? Optional.empty()
                : Optional.of(java.util.List.of(stored.assurance().strip().split(" +")));
    }

    @Override
    public boolean newAccounts() {
        return stored.newAccounts();
    }

    @Override
    public String authorizationEndpoint() {
        return Optional.ofNullable(stored.authorizationEndpoint()).orElse(GITHUB_AUTHORIZATION);
    }

    @Override
    public String tokenEndpoint() {
        return Optional.ofNullable(stored.tokenEndpoint()).orElse(GITHUB_TOKEN);
    }

    @Override
    public String apiBase() {
        return Optional.ofNullable(stored.apiBase()).orElse(GITHUB_API);
    }

    static final String GITHUB_AUTHORIZATION = "https://github.com/login/oauth/authorize";
    static final String GITHUB_TOKEN = "https://github.com/login/oauth/access_token";
    static final String GITHUB_API = "https://api.github.com";
}
