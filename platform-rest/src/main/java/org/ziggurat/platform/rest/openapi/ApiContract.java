package org.ziggurat.platform.rest.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.OAuthFlow;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
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
    static final Map<String, String> SCOPES = Map.of(
            "public", "Read what the caller may see; the scope of a token that asked for none.",
            "user", "Change the person's own profile and see its private fields (GET /user).",
            "write", "Create vocabularies, concepts, data events and import jobs in the namespaces the person may write.",
            "update", "Change and delete vocabularies and concepts in the namespaces the person may write.",
            "admin", "Manage the person's applications, their accessors, organizations and memberships.",
            "openid", "OpenID Connect: an ID token beside the access token, and the person's subject at /oauth/userinfo.",
            "profile", "OpenID Connect: the person's name, username, picture and profile page at /oauth/userinfo.",
            "email", "OpenID Connect: the person's email address at /oauth/userinfo.",
            "offline_access", "OpenID Connect: a refresh token that outlives the person's session (after consent); "
                    + "without it, an OpenID Connect authorization ends when the person signs out.");

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
            components.getSchemas().values().forEach(schema -> inlineNullableReferences(schema, components));
            examples(components);
        }
        if (api.getPaths() != null && api.getPaths().getPathItems() != null) {
            api.getPaths().getPathItems().forEach((path, item) -> item.getOperations().values().forEach(operation -> {
                pathParametersInPathOrder(path, operation);
                standardProblems(operation);
                expandSecurity(operation);
                paging(operation);
                bodyErrors(operation);
            }));
        }
    }

    /** Where a service keeps real answers of its API, by schema name, as the schemas' examples. */
    static final String EXAMPLES = "META-INF/openapi-examples.json";

    /**
     * Each schema named in the service's {@link #EXAMPLES} gets that real answer as its example
     * (the lint checks that it fits the schema).
     */
    static void examples(Components components) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (var in = loader == null ? null : loader.getResourceAsStream(EXAMPLES)) {
            if (in == null) {
                return;
            }
            Map<String, Object> examples = new com.fasterxml.jackson.databind.ObjectMapper().readValue(in,
                    new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() { });
            examples.forEach((name, example) -> {
                Schema schema = components.getSchemas().get(name);
                if (schema == null) {
                    throw new IllegalStateException(EXAMPLES + " names " + name + ", which no schema of this API is");
                }
                schema.setExample(example);
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(EXAMPLES + " cannot be read", e);
        }
    }

    /**
     * OpenAPI 3.0 cannot make a referenced schema nullable: "allOf: [$ref], nullable: true" still
     * refuses null, in validators as in generated clients. A nullable property that refers to
     * another schema gets a copy of it, nullable.
     */
    static void inlineNullableReferences(Schema schema, Components components) {
        if (schema.getProperties() == null) {
            return;
        }
        Map<String, Schema> properties = new java.util.LinkedHashMap<>(schema.getProperties());
        properties.replaceAll((name, property) -> {
            boolean nullable = property.getType() != null && property.getType().contains(Schema.SchemaType.NULL);
            // The model writes a nullable reference as anyOf: [{$ref}, {type: null}].
            String ref = property.getRef() != null ? property.getRef() : property.getAnyOf() == null ? null
                    : property.getAnyOf().stream().map(Schema::getRef).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            if (!nullable || ref == null) {
                return property;
            }
            Schema target = components.getSchemas().get(ref.substring(ref.lastIndexOf('/') + 1));
            if (target == null || target.getType() == null) {
                return property;
            }
            List<Schema.SchemaType> types = new ArrayList<>(target.getType());
            types.add(Schema.SchemaType.NULL);
            return OASFactory.createSchema().type(types).format(target.getFormat()).properties(target.getProperties())
                    .required(target.getRequired()).items(target.getItems())
                    .description(property.getDescription() != null ? property.getDescription() : target.getDescription());
        });
        schema.setProperties(properties); // the model hands out a copy of its properties
    }

    /**
     * The paging parameters of every list (platform-common's {@code PageRequest}) and the headers of
     * its page ({@code PageLinks}).
     */
    static void paging(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        boolean paged = false;
        for (var parameter : operation.getParameters()) {
            if (parameter.getIn() != org.eclipse.microprofile.openapi.models.parameters.Parameter.In.QUERY) {
                continue;
            }
            if ("page".equals(parameter.getName())) {
                paged = true;
                parameter.description("The page to show, from 1.").schema(integer(1, PageRequest.MAX_PAGE, 1));
            } else if ("per_page".equals(parameter.getName())) {
                parameter.description("Items per page.").schema(integer(1, PageRequest.MAX_PER_PAGE, PageRequest.DEFAULT_PER_PAGE));
            }
        }
        if (paged && operation.getResponses() != null && operation.getResponses().getAPIResponse("200") != null) {
            APIResponse page = operation.getResponses().getAPIResponse("200");
            page.addHeader("Link", OASFactory.createHeader().ref(ApiErrors.LINK_HEADER));
            page.addHeader(PageLinks.TOTAL_COUNT, OASFactory.createHeader().description("How many items the whole list holds.")
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).format("int64")));
        }
    }

    /**
     * The problems an operation of the platform's API answers by what it is, so that a resource
     * states only its own: 401 where a token is required (no anonymous alternative), 403 where a
     * scope is, 404 where the path names something, 422 where a JSON body is read. An operation's
     * own answer for a status stays; OAuth protocol endpoints (secured otherwise, or answering
     * RFC 6749 errors) get none of these.
     */
    static void standardProblems(Operation operation) {
        List<SecurityRequirement> security = operation.getSecurity();
        SecurityRequirement oauth2 = security == null ? null
                : security.stream().filter(s -> s.hasScheme(OAUTH2)).findFirst().orElse(null);
        if (oauth2 == null || operation.getResponses() == null || answersOAuthErrors(operation)) {
            return;
        }
        boolean anonymous = security.stream().anyMatch(s -> s.getSchemes() == null || s.getSchemes().isEmpty());
        List<String> scopes = oauth2.getScheme(OAUTH2);
        boolean namesSomething = operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == org.eclipse.microprofile.openapi.models.parameters.Parameter.In.PATH);
        boolean readsJson = operation.getRequestBody() != null && operation.getRequestBody().getContent() != null
                && operation.getRequestBody().getContent().hasMediaType("application/json");
        if (!anonymous) {
            addProblem(operation, "401", ApiErrors.UNAUTHORIZED);
        }
        if (scopes != null && !scopes.isEmpty()) {
            addProblem(operation, "403", ApiErrors.FORBIDDEN);
        }
        if (namesSomething) {
            addProblem(operation, "404", ApiErrors.NOT_FOUND);
        }
        if (readsJson) {
            addProblem(operation, "422", ApiErrors.UNPROCESSABLE);
        }
    }

    private static boolean answersOAuthErrors(Operation operation) {
        return operation.getResponses().getAPIResponses().values().stream()
                .anyMatch(r -> r.getRef() != null && r.getRef().substring(r.getRef().lastIndexOf('/') + 1).startsWith("OAuth"));
    }

    private static void addProblem(Operation operation, String status, String response) {
        if (operation.getResponses().getAPIResponse(status) == null) {
            operation.getResponses().addAPIResponse(status, OASFactory.createAPIResponse().ref(response));
        }
    }

    /** What every operation that takes a body may answer before it reads it (the REST layer, BodyLimits). */
    static void bodyErrors(Operation operation) {
        if (operation.getRequestBody() == null || operation.getResponses() == null) {
            return;
        }
        var responses = operation.getResponses();
        for (String[] error : new String[][] {{"400", ApiErrors.BAD_REQUEST}, {"413", ApiErrors.PAYLOAD_TOO_LARGE},
                {"415", ApiErrors.UNSUPPORTED_MEDIA_TYPE}}) {
            if (responses.getAPIResponse(error[0]) == null) {
                responses.addAPIResponse(error[0], OASFactory.createAPIResponse().ref(error[1]));
            }
        }
    }

    private static Schema integer(int minimum, int maximum, int defaultValue) {
        return OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).format("int32")
                .minimum(java.math.BigDecimal.valueOf(minimum)).maximum(java.math.BigDecimal.valueOf(maximum))
                .defaultValue(defaultValue);
    }

    /**
     * Path parameters in the order the path names them, then the others: the scanner puts a
     * method's own before its class's, and generated clients take them in this order
     * ({@code getDataEvent(namespace, repository, id)}, not {@code (id, namespace, repository)}).
     */
    static void pathParametersInPathOrder(String path, Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        List<org.eclipse.microprofile.openapi.models.parameters.Parameter> sorted = new ArrayList<>(operation.getParameters());
        sorted.sort(java.util.Comparator.comparingInt(p -> p.getIn() == org.eclipse.microprofile.openapi.models.parameters.Parameter.In.PATH
                && path.contains("{" + p.getName() + "}") ? path.indexOf("{" + p.getName() + "}") : Integer.MAX_VALUE));
        operation.setParameters(sorted);
    }

    /** {oauth2: scopes} becomes the four ways to send that token, then {} if anonymous callers are answered. */
    static void expandSecurity(Operation operation) {
        List<SecurityRequirement> security = operation.getSecurity();
        if (security == null) {
            return;
        }
        SecurityRequirement oauth2 = security.stream().filter(s -> s.hasScheme(OAUTH2)).findFirst().orElse(null);
        if (oauth2 == null) {
            return;
        }
        boolean anonymous = security.stream().anyMatch(s -> s.getSchemes() == null || s.getSchemes().isEmpty());
        List<SecurityRequirement> expanded = new ArrayList<>(List.of(oauth2));
        for (String scheme : List.of(BEARER, TOKEN_HEADER, ACCESS_TOKEN_QUERY)) {
            expanded.add(OASFactory.createSecurityRequirement().addScheme(scheme));
        }
        if (anonymous) {
            expanded.add(OASFactory.createSecurityRequirement());
        }
        operation.setSecurity(expanded);
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
                .description("The Bearer challenge (RFC 6750): error=\"invalid_token\", \"invalid_request\" or \"insufficient_scope\".");
        components.addResponse(ApiErrors.BAD_REQUEST, problem("The request is malformed: a body that is not the JSON "
                + "expected, a query parameter out of range, an identifier that cannot exist."));
        components.addResponse(ApiErrors.UNAUTHORIZED, problem("The operation needs a person and no valid access token "
                + "came with the request, or the token is invalid, expired or revoked.")
                .addHeader("WWW-Authenticate", authenticate));
        components.addResponse(ApiErrors.FORBIDDEN, problem("The caller is known but may not do this: the token lacks "
                + "the scope the operation needs, or the person lacks the right.").addHeader("WWW-Authenticate", authenticate));
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
