package org.ziggurat.auth.federation;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A provider's token endpoint (the code exchanged with PKCE, the client authenticated as the
 * operator set: HTTP Basic or the form) and its user info, as the Nimbus SDK's requests sent by the
 * address rules ({@link ProviderHttp}); the provider's 5xx is {@code DependencyUnavailable}, any other
 * failure a {@link Upstream.Refused}. Blocking: called on worker threads.
 */
final class ProviderEndpoints {

    private final FederationSettings.Provider settings;
    private final ProviderHttp http;

    ProviderEndpoints(FederationSettings.Provider settings, ProviderHttp http) {
        this.settings = settings;
        this.http = http;
    }

    OIDCTokenResponse tokens(OIDCProviderMetadata metadata, String code, Upstream.Attempt attempt, String redirectUri) {
        ClientID client = new ClientID(settings.clientId());
        AuthorizationCodeGrant grant = new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(redirectUri),
                new CodeVerifier(attempt.codeVerifier()));
        ClientAuthentication authentication = settings.clientSecret().map(secret -> "post".equals(settings.clientAuth())
                ? (ClientAuthentication) new ClientSecretPost(client, new Secret(secret))
                : new ClientSecretBasic(client, new Secret(secret))).orElse(null);
        TokenRequest request = authentication == null ? new TokenRequest(metadata.getTokenEndpointURI(), client, grant)
                : new TokenRequest(metadata.getTokenEndpointURI(), authentication, grant);
        HTTPResponse response = send(request.toHTTPRequest());
        TokenResponse parsed;
        try {
            parsed = OIDCTokenResponseParser.parse(response);
        } catch (ParseException e) {
            throw unavailableOrRefused(response, Upstream.Reason.TOKEN_ANSWER_MALFORMED, "the token endpoint's answer is not one");
        }
        if (!parsed.indicatesSuccess()) {
            if (response.getStatusCode() >= 500) {
                throw new DependencyUnavailable("the provider's token endpoint answered " + response.getStatusCode(), null);
            }
            throw new Upstream.Refused(Upstream.Reason.CODE_REFUSED, "the token endpoint refused the code");
        }
        return (OIDCTokenResponse) parsed.toSuccessResponse();
    }

    UserInfo userInfo(OIDCProviderMetadata metadata, BearerAccessToken accessToken) {
        if (metadata.getUserInfoEndpointURI() == null || accessToken == null) {
            return null;
        }
        HTTPResponse response = send(new UserInfoRequest(metadata.getUserInfoEndpointURI(), accessToken).toHTTPRequest());
        try {
            UserInfoResponse parsed = UserInfoResponse.parse(response);
            if (!parsed.indicatesSuccess()) {
                throw unavailableOrRefused(response, Upstream.Reason.USER_INFO_REFUSED, "user info refused the access token");
            }
            UserInfo info = parsed.toSuccessResponse().getUserInfo();
            if (info == null) {
                throw new Upstream.Refused(Upstream.Reason.USER_INFO_MALFORMED, "user info answered a JWT, which this client does not ask for");
            }
            return info;
        } catch (ParseException e) {
            throw unavailableOrRefused(response, Upstream.Reason.USER_INFO_MALFORMED, "user info's answer is not one");
        }
    }

    private static RuntimeException unavailableOrRefused(HTTPResponse response, Upstream.Reason reason, String detail) {
        return response.getStatusCode() >= 500
                ? new DependencyUnavailable("the provider answered " + response.getStatusCode(), null)
                : new Upstream.Refused(reason, detail);
    }

    /** The SDK's request sent by the address rules, its answer back as the SDK's. */
    private HTTPResponse send(HTTPRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        request.getHeaderMap().forEach((name, values) -> headers.put(name, String.join(", ", values)));
        ProviderHttp.Reply reply = http.sendBlocking(request.getMethod().name(), request.getURL().toString(), headers,
                request.getBody());
        HTTPResponse response = new HTTPResponse(reply.status());
        if (reply.contentType() != null) {
            response.setHeader("Content-Type", reply.contentType());
        }
        if (reply.wwwAuthenticate() != null) {
            response.setHeader("WWW-Authenticate", reply.wwwAuthenticate());
        }
        response.setBody(reply.body());
        return response;
    }
}
