package org.ziggurat.gateway.reference;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/** The merged OpenAPI document while a service's own is missing, and the reference page. */
@QuarkusTest
class ApiReferenceTest {

    /**
     * events-service's stand-in listens nowhere (UpstreamStubs): even with the three other documents
     * read, none of their paths is served as if it were the API. The merged document itself:
     * {@link SlowServiceDocumentTest}.
     */
    @Test
    void withoutEveryServicesDocumentTheReferenceIsNotReady() {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Response answer = given().get("/api/openapi");
            answer.then().statusCode(503).contentType("application/problem+json")
                    .header("Retry-After", matchesPattern("[1-9][0-9]*"))
                    .header("Cache-Control", "no-store")
                    .body("status", equalTo(503))
                    .body("detail", containsString("events-service"))
                    .body("paths", nullValue());
            String detail = answer.jsonPath().getString("detail");
            return !detail.contains("auth-service") && !detail.contains("directory-service") && !detail.contains("vocab-service");
        });
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
