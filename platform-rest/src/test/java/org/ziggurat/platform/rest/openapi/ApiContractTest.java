package org.ziggurat.platform.rest.openapi;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules by which every service's OpenAPI document is completed ({@link ApiContract}). */
class ApiContractTest {

    @Test
    void theDocumentedScopesAreThePlatformsScopes() {
        assertEquals(java.util.Set.copyOf(org.ziggurat.platform.token.ScopeNames.ALL), ApiContract.SCOPES.keySet(),
                "every scope the services check is described, and nothing else");
    }

    @Test
    void anOperationsScopesComeWithEveryWayToSendTheToken() {
        Operation operation = OASFactory.createOperation().security(List.of(
                OASFactory.createSecurityRequirement().addScheme(ApiContract.OAUTH2, List.of("admin"))));
        OperationRules.expandSecurity(operation);
        List<Map<String, List<String>>> security = operation.getSecurity().stream().map(s -> s.getSchemes()).toList();
        assertEquals(List.of(Map.of("oauth2", List.of("admin")), Map.of("bearer", List.of()), Map.of("tokenHeader", List.of()),
                Map.of("accessTokenQuery", List.of())), security);
    }

    @Test
    void anonymousCallersStayAnAlternativeAndLast() {
        Operation operation = OASFactory.createOperation().security(List.of(OASFactory.createSecurityRequirement(),
                OASFactory.createSecurityRequirement().addScheme(ApiContract.OAUTH2)));
        OperationRules.expandSecurity(operation);
        assertEquals(5, operation.getSecurity().size());
        assertTrue(operation.getSecurity().get(0).hasScheme(ApiContract.OAUTH2));
        assertTrue(operation.getSecurity().get(4).getSchemes() == null || operation.getSecurity().get(4).getSchemes().isEmpty());
    }

    @Test
    void otherSchemesAreLeftAsTheyAre() {
        Operation operation = OASFactory.createOperation().security(List.of(
                OASFactory.createSecurityRequirement().addScheme(ApiContract.CLIENT_BASIC), OASFactory.createSecurityRequirement()));
        OperationRules.expandSecurity(operation);
        assertEquals(2, operation.getSecurity().size());
    }

    @Test
    void pathParametersComeInTheOrderOfThePath() {
        Operation operation = OASFactory.createOperation().parameters(List.of(
                parameter("id", Parameter.In.PATH), parameter("since", Parameter.In.QUERY),
                parameter("repository", Parameter.In.PATH), parameter("namespace", Parameter.In.PATH),
                parameter("page", Parameter.In.QUERY)));
        OperationRules.pathParametersInPathOrder("/{namespace}/repositories/{repository}/data/events/{id}", operation);
        assertEquals(List.of("namespace", "repository", "id", "since", "page"),
                operation.getParameters().stream().map(Parameter::getName).toList());
    }

    @Test
    void pagingParametersAreBoundedIntegersAndTheirAnswerCarriesTheLinks() {
        Operation operation = OASFactory.createOperation()
                .parameters(List.of(parameter("page", Parameter.In.QUERY), parameter("per_page", Parameter.In.QUERY)))
                .responses(OASFactory.createAPIResponses().addAPIResponse("200", OASFactory.createAPIResponse()));
        OperationRules.paging(operation);
        Schema perPage = operation.getParameters().get(1).getSchema();
        assertEquals(List.of(Schema.SchemaType.INTEGER), perPage.getType());
        assertEquals(100, perPage.getMaximum().intValue());
        assertEquals(30, ((Number) perPage.getDefaultValue()).intValue());
        assertTrue(operation.getResponses().getAPIResponse("200").getHeaders().containsKey("Link"));
    }

    @Test
    void anOperationWithABodyAnswersTheBodyErrorsButKeepsItsOwn() {
        Operation operation = OASFactory.createOperation().requestBody(OASFactory.createRequestBody())
                .responses(OASFactory.createAPIResponses().addAPIResponse("400",
                        OASFactory.createAPIResponse().description("its own")));
        OperationRules.bodyErrors(operation);
        assertEquals("its own", operation.getResponses().getAPIResponse("400").getDescription());
        assertEquals("#/components/responses/" + ApiErrors.PAYLOAD_TOO_LARGE, operation.getResponses().getAPIResponse("413").getRef());
        assertEquals("#/components/responses/" + ApiErrors.UNSUPPORTED_MEDIA_TYPE,
                operation.getResponses().getAPIResponse("415").getRef());
        Operation noBody = OASFactory.createOperation().responses(OASFactory.createAPIResponses());
        OperationRules.bodyErrors(noBody);
        assertNull(noBody.getResponses().getAPIResponse("413"));
    }

    @Test
    void anOperationAnswersTheProblemsOfWhatItIs() {
        Operation scopedChange = OASFactory.createOperation()
                .security(List.of(OASFactory.createSecurityRequirement().addScheme(ApiContract.OAUTH2, List.of("write"))))
                .parameters(List.of(parameter("id", Parameter.In.PATH)))
                .requestBody(OASFactory.createRequestBody().content(OASFactory.createContent()
                        .addMediaType("application/json", OASFactory.createMediaType())))
                .responses(OASFactory.createAPIResponses().addAPIResponse("404",
                        OASFactory.createAPIResponse().description("its own")));
        OperationRules.standardProblems(scopedChange);
        assertEquals("#/components/responses/" + ApiErrors.UNAUTHORIZED, scopedChange.getResponses().getAPIResponse("401").getRef());
        assertEquals("#/components/responses/" + ApiErrors.FORBIDDEN, scopedChange.getResponses().getAPIResponse("403").getRef());
        assertEquals("its own", scopedChange.getResponses().getAPIResponse("404").getDescription());
        assertEquals("#/components/responses/" + ApiErrors.UNPROCESSABLE, scopedChange.getResponses().getAPIResponse("422").getRef());

        // Anonymous callers answered, no scope, nothing named, no JSON read: none of them.
        Operation openList = OASFactory.createOperation()
                .security(List.of(OASFactory.createSecurityRequirement().addScheme(ApiContract.OAUTH2),
                        OASFactory.createSecurityRequirement()))
                .parameters(List.of(parameter("page", Parameter.In.QUERY)))
                .responses(OASFactory.createAPIResponses());
        OperationRules.standardProblems(openList);
        assertEquals(java.util.Set.of(), openList.getResponses().getAPIResponses().keySet());
    }

    @Test
    void oauthProtocolEndpointsKeepTheirOwnErrors() {
        Operation userInfo = OASFactory.createOperation()
                .security(List.of(OASFactory.createSecurityRequirement().addScheme(ApiContract.OAUTH2, List.of("openid"))))
                .responses(OASFactory.createAPIResponses().addAPIResponse("401",
                        OASFactory.createAPIResponse().ref(ApiErrors.OAUTH_UNAUTHORIZED)));
        OperationRules.standardProblems(userInfo);
        assertNull(userInfo.getResponses().getAPIResponse("403"));
        Operation internal = OASFactory.createOperation().parameters(List.of(parameter("id", Parameter.In.PATH)))
                .responses(OASFactory.createAPIResponses());
        OperationRules.standardProblems(internal);
        assertNull(internal.getResponses().getAPIResponse("404"), "not the platform's public API: its own answers only");
    }

    @Test
    void aNullableReferenceBecomesANullableCopy() {
        Components components = OASFactory.createComponents().addSchema("AppSummary", OASFactory.createSchema()
                .addType(Schema.SchemaType.OBJECT).addProperty("name", OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        Schema nullableRef = OASFactory.createSchema().type(List.of(Schema.SchemaType.OBJECT, Schema.SchemaType.NULL))
                .anyOf(List.of(OASFactory.createSchema().ref("#/components/schemas/AppSummary"),
                        OASFactory.createSchema().addType(Schema.SchemaType.NULL)));
        Schema plainRef = OASFactory.createSchema().ref("#/components/schemas/AppSummary");
        Schema authorization = OASFactory.createSchema().addProperty("app", nullableRef).addProperty("owner", plainRef);
        SchemaRules.inlineNullableReferences(authorization, components);
        Schema app = authorization.getProperties().get("app");
        assertEquals(List.of(Schema.SchemaType.OBJECT, Schema.SchemaType.NULL), app.getType());
        assertTrue(app.getProperties().containsKey("name"));
        assertNull(app.getAnyOf());
        assertEquals("#/components/schemas/AppSummary", authorization.getProperties().get("owner").getRef());
    }

    private static Parameter parameter(String name, Parameter.In in) {
        return OASFactory.createParameter().name(name).in(in);
    }
}
