package org.ziggurat.gateway.reference;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The merged OpenAPI document and the reference page, from the services' own documents. */
@QuarkusTest
class ApiReferenceTest {

    @Test
    void theMergedDocumentHoldsEveryPublicPath() {
        given().get("/api/openapi").then().statusCode(200).contentType("application/json")
                .body("openapi", equalTo("3.0.3"))
                .body("servers[0].url", equalTo("https://api.test.example/api"))
                .body("paths.'/oauth/token'.post", notNullValue())
                .body("paths.'/people/{username}'.get", notNullValue())
                .body("paths.'/internal/people'", nullValue())
                // Only what public paths use, directly or through another schema.
                .body("components.schemas.Problem", nullValue())
                .body("components.schemas.PasswordCheck", nullValue())
                .body("components.schemas.Place", notNullValue())
                .body("components.schemas.Person.properties.username", notNullValue())
                .body("components.schemas.Vocab_Person.properties.name", notNullValue())
                .body("paths.'/{namespace}/vocab/schemes'.get.responses.'200'.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/Vocab_Person"))
                .body("'x-unavailable-services'", hasItem("events-service"));
    }

    @Test
    void theReferenceIsSwaggerUiServedFromHere() {
        given().get("/api/docs").then().statusCode(200).contentType(containsString("text/html"))
                .header("Content-Security-Policy", containsString("default-src 'none'; script-src 'self'"))
                .body(containsString("data-openapi=\"/api/openapi\""))
                .body(containsString("src=\"/api/docs/swagger-ui-bundle.js\""))
                .body(containsString("src=\"/api/docs/viewer.js\""))
                .body(not(containsString("http")));
        given().get("/api/docs/swagger-ui-bundle.js").then().statusCode(200).contentType(containsString("javascript"))
                .body(containsString("SwaggerUIBundle"));
        given().get("/api/docs/viewer.js").then().statusCode(200).body(containsString("data-openapi"));
        given().get("/api/docs/swagger-ui.css").then().statusCode(200).contentType(containsString("text/css"));
        given().get("/api/docs/index.html").then().statusCode(404);
        given().post("/openapi").then().statusCode(404);
    }
}
