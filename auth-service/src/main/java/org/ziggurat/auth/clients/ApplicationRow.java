package org.ziggurat.auth.clients;

import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** An OAuth client as stored: its secret only as a keyed hash. */
public record ApplicationRow(long id, Long ownerId, String name, String clientId, byte[] clientSecretHash,
        boolean confidential, List<String> redirectUris, List<String> scopes, boolean passwordGrant,
        boolean introspection, List<String> postLogoutRedirectUris, String idTokenAlg, boolean requirePushedRequests,
        byte[] registrationTokenHash, String registrationMetadata, Instant createdAt, Instant updatedAt, boolean verified,
        Integer refreshTokenAbsoluteLifetime, String accessTokenFormat, boolean dpopBoundAccessTokens,
        boolean tokenExchange, boolean operatorRegistered) {

    /** RFC 9068 JWT access tokens, rather than opaque ones. */
    public boolean jwtAccessTokens() {
        return "jwt".equals(accessTokenFormat);
    }

    static final String COLUMNS = "id, owner_id, name, client_id, client_secret_hash, confidential, redirect_uris, "
            + "scopes, password_grant, introspection, post_logout_redirect_uris, id_token_signed_response_alg, "
            + "require_pushed_authorization_requests, registration_token_hash, registration_metadata::text, created_at, "
            + "updated_at, verified, refresh_token_absolute_lifetime, access_token_format, dpop_bound_access_tokens, token_exchange, "
            + "operator_registered";

    public static ApplicationRow from(Row row) {
        Buffer secret = row.getBuffer("client_secret_hash");
        return new ApplicationRow(row.getLong("id"), row.getLong("owner_id"), row.getString("name"),
                row.getString("client_id"), secret == null ? null : secret.getBytes(), row.getBoolean("confidential"),
                Arrays.asList(row.getArrayOfStrings("redirect_uris")), Arrays.asList(row.getArrayOfStrings("scopes")),
                row.getBoolean("password_grant"), row.getBoolean("introspection"),
                Arrays.asList(row.getArrayOfStrings("post_logout_redirect_uris")),
                row.getString("id_token_signed_response_alg"), row.getBoolean("require_pushed_authorization_requests"),
                row.getBuffer("registration_token_hash") == null ? null : row.getBuffer("registration_token_hash").getBytes(),
                row.getString("registration_metadata"),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("updated_at").toInstant(),
                row.getBoolean("verified"), row.getInteger("refresh_token_absolute_lifetime"),
                row.getString("access_token_format"), row.getBoolean("dpop_bound_access_tokens"),
                row.getBoolean("token_exchange"), row.getBoolean("operator_registered"));
    }
}
