package org.ziggurat.platform.rest.openapi;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.OAuthFlow;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.ziggurat.platform.problem.Problem;

/**
 * What every service's OpenAPI document shares, added to the model the annotations made: the
 * ways to send an access token (security schemes), the problem body and the error answers that
 * operations name by {@link ApiErrors reference}, the paging {@code Link} header.
 *
 * <p>An operation states its scopes once, {@code @SecurityRequirement(name = "oauth2", scopes = …)};
 * this filter adds the other three ways to send the same token as alternatives. An operation that
 * also answers callers without a token adds an empty {@code @SecurityRequirementsSet}, which stays
 * last (its answer then depends on who calls, as for {@code GET /people/{username}}).
 */
public class ApiContract implements OASFilter {

    public static final String OAUTH2 = "oauth2";
    static final String BEARER = "bearer";
    static final String TOKEN_HEADER = "tokenHeader";
    static final String ACCESS_TOKEN_QUERY = "accessTokenQuery";
    /** A client's own credentials, at the /oauth endpoints (or client_id and client_secret in the form). */
    public static final String CLIENT_BASIC = "clientBasic";
    /** RFC 7592: the registration access token of one dynamically registered client. */
    public static final String REGISTRATION_TOKEN = "registrationToken";

    /** The scopes auth-service issues (its {@code Scopes.KNOWN}), as the OAuth flows list them. */
    static final Map<String, String> SCOPES = Map.ofEntries(
            Map.entry("public", "Read what the caller may see; the scope of a token that asked for none."),
            Map.entry("user", "Change the person's own profile and see its private fields (GET /user)."),
            Map.entry("write", "Create vocabularies, concepts, data events and import jobs in the namespaces the person may write."),
            Map.entry("update", "Change and delete vocabularies and concepts in the namespaces the person may write."),
            Map.entry("admin", "Manage the person's applications, their accessors, organizations and memberships."),
            Map.entry("account", "The account itself: its sign-in address, security log, export and deletion. Only an "
                    + "application the platform's operators verified may ask for it."),
            Map.entry("openid", "OpenID Connect: an ID token beside the access token, and the person's subject at /oauth/userinfo."),
            Map.entry("profile", "OpenID Connect: the person's name, username, picture and profile page at /oauth/userinfo, and "
                    + "the given and family name, website, locale and time zone they gave."),
            Map.entry("email", "OpenID Connect: the person's email address at /oauth/userinfo."),
            Map.entry("offline_access", "OpenID Connect: a refresh token that outlives the person's session (after consent); "
                    + "without it, an OpenID Connect authorization ends when the person signs out."),
            Map.entry("entitlements", "Research claims: the person's memberships as eduperson_entitlement values (AARC-G069), "
                    + "in ID tokens, at /oauth/userinfo and in introspection answers."),
            Map.entry("orcid", "Research claims: the person's ORCID iD (from a linked ORCID or institution sign-in)."),
            Map.entry("eduperson_assurance", "Research claims: the REFEDS assurance a linked provider asserted."),
            Map.entry("voperson_id", "Research claims: the person's persistent, never reassigned identifier."));

    @Override
    public void filterOpenAPI(OpenAPI api) {
        if (api.getComponents() == null) {
            api.setComponents(OASFactory.createComponents());
        }
        Components components = api.getComponents();
        securitySchemes(components);
        problemSchemas(components);
        errorResponses(components);
        oauthResponses(components);
        components.addHeader(ApiErrors.LINK_HEADER, OASFactory.createHeader()
                .description("RFC 8288 links to the other pages of a list: rel=\"first\", \"prev\", \"next\" and \"last\" "
                        + "(next and last only while there are more items).")
                .schema(string()));
        if (components.getSchemas() != null) {
            // One of several shapes (an object or an array): the scanner's "type: object" would refuse the array.
            components.getSchemas().values().stream().filter(schema -> schema.getOneOf() != null)
                    .forEach(schema -> schema.setType(null));
            components.getSchemas().values().forEach(schema -> SchemaRules.inlineNullableReferences(schema, components));
            SchemaRules.examples(components);
        }
        if (api.getPaths() != null && api.getPaths().getPathItems() != null) {
            api.getPaths().getPathItems().forEach((path, item) -> item.getOperations().values().forEach(operation -> {
                OperationRules.pathParametersInPathOrder(path, operation);
                OperationRules.standardProblems(operation);
                OperationRules.expandSecurity(operation);
                OperationRules.paging(operation);
                OperationRules.bodyErrors(operation);
            }));
        }
    }

    private static void securitySchemes(Components components) {
        OAuthFlow code = OASFactory.createOAuthFlow().authorizationUrl("/oauth/authorize").tokenUrl("/oauth/token")
                .refreshUrl("/oauth/token").scopes(SCOPES);
        OAuthFlow password = OASFactory.createOAuthFlow().tokenUrl("/oauth/token").refreshUrl("/oauth/token").scopes(SCOPES);
        components.addSecurityScheme(OAUTH2, OASFactory.createSecurityScheme().type(SecurityScheme.Type.OAUTH2)
                .description("An access token from the token endpoint, sent as 'Authorization: Bearer <token>'. "
                        + "The scopes an operation lists are the ones it needs.")
                .flows(OASFactory.createOAuthFlows().authorizationCode(code).password(password)));
        components.addSecurityScheme(CLIENT_BASIC, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("basic").description("An application's client_id and client_secret as HTTP Basic credentials "
                        + "(client_secret_basic); the /oauth endpoints also take them as form fields (client_secret_post)."));
        components.addSecurityScheme(BEARER, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer").description("The same access token, pasted: 'Authorization: Bearer <token>'."));
        components.addSecurityScheme(REGISTRATION_TOKEN, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer").description("The registration access token (RFC 7592) that registering a client "
                        + "answered: it reads, changes and deletes that registration, and nothing else."));
        components.addSecurityScheme(TOKEN_HEADER, OASFactory.createSecurityScheme().type(SecurityScheme.Type.APIKEY)
                .in(SecurityScheme.In.HEADER).name("Authorization")
                .description("The same access token as 'Authorization: token <token>' (the value includes the word token)."));
        components.addSecurityScheme(ACCESS_TOKEN_QUERY, OASFactory.createSecurityScheme().type(SecurityScheme.Type.APIKEY)
                .in(SecurityScheme.In.QUERY).name("access_token")
                .description("The same access token as the query parameter access_token; the header is preferred, "
                        + "since addresses end up in logs."));
    }

    private static void problemSchemas(Components components) {
        components.addSchema(ApiErrors.FIELD_ERROR_SCHEMA, object(List.of("field", "message"))
                .description("One field at fault.")
                .addProperty("field", string().description("Where in the input, as labels[2].body."))
                .addProperty("message", string().description("What is wrong with it.")));
        components.addSchema(ApiErrors.PROBLEM_SCHEMA, object(List.of("type", "title", "status"))
                .description("An RFC 9457 problem: the error body of every operation outside /oauth.")
                .addProperty("type", string().description("A URI naming the kind of problem; about:blank when the status says it all."))
                .addProperty("title", string().description("The status's reason phrase."))
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).format("int32"))
                .addProperty("detail", string().description("What went wrong with this request, for a person to read."))
                .addProperty("instance", string().description("The request's path."))
                .addProperty("request_id", string().description("The request's X-Request-Id, to quote when asking for help."))
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                        .description("The fields at fault, when the input failed its checks.")
                        .items(ref(ApiErrors.FIELD_ERROR_SCHEMA)))
                .example(Map.of("type", "about:blank", "title", "Not Found", "status", 404,
                        "detail", "No such organization.", "instance", "/organizations/42",
                        "request_id", "5f0c3e1a-3c1d-4c55-9a3b-0c6f6b7a2d11")));
        components.addSchema(ApiErrors.OAUTH_ERROR_SCHEMA, object(List.of("error"))
                .description("An RFC 6749 error (section 5.2): the error body of the /oauth endpoints.")
                .addProperty("error", string().description("invalid_request, invalid_client, invalid_grant, "
                        + "unauthorized_client, unsupported_grant_type, invalid_scope, insufficient_scope, invalid_token, "
                        + "access_denied, slow_down ..."))
                .addProperty("error_description", string().description("What went wrong, for a developer to read."))
                .example(Map.of("error", "invalid_grant", "error_description",
                        "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI "
                                + "used in the authorization request, or was issued to another client.")));
    }

    private static void errorResponses(Components components) {
        Header authenticate = OASFactory.createHeader().schema(string())
                .description("The Bearer challenge (RFC 6750): error=\"invalid_token\", \"invalid_request\" or "
                        + "\"insufficient_scope\"; or RFC 9470's \"insufficient_user_authentication\" with acr_values.");
        components.addResponse(ApiErrors.BAD_REQUEST, problem("The request is malformed: a body that is not the JSON "
                + "expected, a query parameter out of range, an identifier that cannot exist."));
        components.addResponse(ApiErrors.UNAUTHORIZED, problem("The operation needs a person and no valid access token "
                + "came with the request, or the token is invalid, expired or revoked; or (title Insufficient User "
                + "Authentication, RFC 9470) the token's sign-in was without the second factor that an organization "
                + "requires of its members: the challenge says error=\"insufficient_user_authentication\" and the "
                + "acr_values to ask for in a new authorization request.")
                .addHeader("WWW-Authenticate", authenticate));
        components.addResponse(ApiErrors.FORBIDDEN, problem("The caller is known but may not do this: the token lacks "
                + "the scope the operation needs, or the person lacks the right (title Second Factor Required: a member "
                + "of an organization that requires a second factor has none yet).").addHeader("WWW-Authenticate", authenticate));
        components.addResponse(ApiErrors.NOT_FOUND, problem("Nothing is there, or nothing the caller may see: "
                + "what is private to others answers 404, as if it did not exist."));
        components.addResponse(ApiErrors.CONFLICT, problem("The request clashes with what exists: a name taken, a "
                + "state that does not allow the change."));
        components.addResponse(ApiErrors.PAYLOAD_TOO_LARGE, problem("The request body is larger than the operation accepts."));
        components.addResponse(ApiErrors.UNSUPPORTED_MEDIA_TYPE, problem("The request body is not of a media type the "
                + "operation accepts."));
        components.addResponse(ApiErrors.UNPROCESSABLE, problem("The body is well-formed but its fields fail their "
                + "checks; errors lists each field at fault."));
    }

    /** The /oauth endpoints' errors: RFC 6749 bodies, not problems. */
    private static void oauthResponses(Components components) {
        Header authenticate = OASFactory.createHeader().schema(string())
                .description("Basic for a client that failed to authenticate, Bearer for a missing or bad access token.");
        components.addResponse(ApiErrors.OAUTH_BAD_REQUEST, oauthError("The request is invalid: invalid_request, "
                + "invalid_grant, unauthorized_client, unsupported_grant_type, unsupported_response_type or invalid_scope."));
        components.addResponse(ApiErrors.OAUTH_UNAUTHORIZED, oauthError("The client failed to authenticate "
                + "(invalid_client), or the access token is missing, invalid, expired or revoked.")
                .addHeader("WWW-Authenticate", authenticate));
        components.addResponse(ApiErrors.OAUTH_FORBIDDEN, oauthError("The token may not do this (insufficient_scope), "
                + "or the request was denied (access_denied)."));
        components.addResponse(ApiErrors.OAUTH_SLOW_DOWN, oauthError("Too many failed sign-ins for this account or "
                + "address (slow_down); try again later.").addHeader("Retry-After", OASFactory.createHeader()
                .description("Seconds to wait.").schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))));
    }

    private static APIResponse oauthError(String description) {
        return OASFactory.createAPIResponse().description(description).content(OASFactory.createContent()
                .addMediaType("application/json", OASFactory.createMediaType().schema(ref(ApiErrors.OAUTH_ERROR_SCHEMA))));
    }

    private static APIResponse problem(String description) {
        return OASFactory.createAPIResponse().description(description).content(problemContent());
    }

    public static Content problemContent() {
        return OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                OASFactory.createMediaType().schema(ref(ApiErrors.PROBLEM_SCHEMA)));
    }

    private static Schema object(List<String> required) {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT).required(required);
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING);
    }

    private static Schema ref(String schema) {
        return OASFactory.createSchema().ref("#/components/schemas/" + schema);
    }
}
