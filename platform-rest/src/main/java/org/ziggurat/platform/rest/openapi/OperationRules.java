package org.ziggurat.platform.rest.openapi;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.rest.paging.PageLinks;

/**
 * What {@link ApiContract} completes in each operation from what the operation is: its security
 * alternatives, its standard problems, its paging, the order of its parameters.
 */
final class OperationRules {

    private OperationRules() {
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
     * scope is or the path names a namespace (an organization may require a second factor of its
     * members), 404 where the path names something, 422 where a JSON body is read. An operation's
     * own answer for a status stays; OAuth protocol endpoints (secured otherwise, or answering
     * RFC 6749 errors) get none of these.
     */
    static void standardProblems(Operation operation) {
        SecurityRequirement oauth2 = oauth2(operation.getSecurity());
        if (oauth2 == null || operation.getResponses() == null || answersOAuthErrors(operation)) {
            return;
        }
        boolean anonymous = answersAnonymous(operation.getSecurity());
        List<String> scopes = oauth2.getScheme(ApiContract.OAUTH2);
        boolean namesSomething = operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == org.eclipse.microprofile.openapi.models.parameters.Parameter.In.PATH);
        boolean readsJson = operation.getRequestBody() != null && operation.getRequestBody().getContent() != null
                && operation.getRequestBody().getContent().hasMediaType("application/json");
        if (!anonymous) {
            addProblem(operation, "401", ApiErrors.UNAUTHORIZED);
        }
        boolean namesNamespace = operation.getParameters() != null && operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == org.eclipse.microprofile.openapi.models.parameters.Parameter.In.PATH
                        && "namespace".equals(p.getName()));
        if (scopes != null && !scopes.isEmpty() || namesNamespace) {
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
        SecurityRequirement oauth2 = oauth2(operation.getSecurity());
        if (oauth2 == null) {
            return;
        }
        boolean anonymous = answersAnonymous(operation.getSecurity());
        List<SecurityRequirement> expanded = new ArrayList<>(List.of(oauth2));
        for (String scheme : List.of(ApiContract.BEARER, ApiContract.TOKEN_HEADER, ApiContract.ACCESS_TOKEN_QUERY)) {
            expanded.add(OASFactory.createSecurityRequirement().addScheme(scheme));
        }
        if (anonymous) {
            expanded.add(OASFactory.createSecurityRequirement());
        }
        operation.setSecurity(expanded);
    }

    /** The operation's {oauth2: scopes} requirement; null when it has none. */
    private static SecurityRequirement oauth2(List<SecurityRequirement> security) {
        return security == null ? null
                : security.stream().filter(s -> s.hasScheme(ApiContract.OAUTH2)).findFirst().orElse(null);
    }

    /** Whether callers without a token are answered too (an empty requirement among the alternatives). */
    private static boolean answersAnonymous(List<SecurityRequirement> security) {
        return security.stream().anyMatch(s -> s.getSchemes() == null || s.getSchemes().isEmpty());
    }
}
