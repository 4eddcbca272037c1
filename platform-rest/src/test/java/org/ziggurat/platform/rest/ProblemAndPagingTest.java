package org.ziggurat.platform.rest;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.PlatformTestKeys;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

/** Errors leave as problem documents, lists page with Link headers, times have milliseconds. */
@QuarkusTest
@QuarkusTestResource(PlatformTestKeys.class)
class ProblemAndPagingTest {

    @Test
    void unknownPathIsA404Problem() {
        given().get("/no/such/thing").then().statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("title", equalTo("Not Found"))
                .body("request_id", notNullValue());
    }

    @Test
    void requestIdIsCarriedIntoTheProblem() {
        given().header("X-Request-Id", "req-123").get("/probe/conflict").then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", equalTo("That name is taken."))
                .body("request_id", equalTo("req-123"));
    }

    @Test
    void theProblemsInstanceIsThePathTheCallerUsedBehindTheGateway() {
        // The gateway forwards /api/probe/conflict as /probe/conflict with X-Forwarded-Prefix: /api.
        // Its own problems name the public path; a service's must name the same, not its own.
        given().header("X-Forwarded-Prefix", "/api").get("/probe/conflict").then().statusCode(409)
                .body("instance", equalTo("/api/probe/conflict"));
        given().header("X-Forwarded-Prefix", "/api").contentType("application/json").body("{\"name\": ")
                .post("/probe/echo").then().statusCode(400)
                .body("instance", equalTo("/api/probe/echo"));
        given().header("X-Forwarded-Prefix", "/api").get("/no/such/thing").then().statusCode(404)
                .body("instance", equalTo("/api/no/such/thing"));
        // Called directly, the path is the service's own.
        given().get("/probe/conflict").then().statusCode(409).body("instance", equalTo("/probe/conflict"));
    }

    @Test
    void malformedJsonIsA400Problem() {
        given().contentType("application/json").body("{\"name\": ").post("/probe/echo").then().statusCode(400)
                .contentType("application/problem+json").body("status", equalTo(400));
    }

    @Test
    void wronglyTypedFieldIsA400ProblemNamingTheField() {
        given().contentType("application/json").body("{\"name\":\"x\",\"count\":\"many\"}").post("/probe/echo")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo("count"));
    }

    @Test
    void wrongContentTypeIsA415Problem() {
        given().contentType("text/plain").body("hello").post("/probe/echo").then().statusCode(415)
                .contentType("application/problem+json");
    }

    @Test
    void wrongMethodIsA405Problem() {
        given().delete("/probe/echo").then().statusCode(405).contentType("application/problem+json");
    }

    @Test
    void unexpectedFailureShowsNoInternals() {
        given().get("/probe/crash").then().statusCode(500)
                .contentType("application/problem+json")
                .body(allOf(not(containsString("IllegalStateException")), not(containsString("secret internal detail")),
                        not(containsString("at org."))));
    }

    @Test
    void aDependencyThatTimesOutIsA503ToRetry() {
        given().get("/probe/slow-dependency").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "2")
                .body("status", org.hamcrest.Matchers.equalTo(503));
    }

    @Test
    void anotherServiceAwayIsA503ThatSaysSoAndTheDatabaseAwayIsA503ThatSaysThat() {
        given().get("/probe/other-service-refused").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "2")
                .body("detail", equalTo("A service this request needs is unavailable for a moment. Try again shortly."));
        given().get("/probe/database-refused").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "2")
                .body("detail", containsString("lost its database"));
        given().get("/probe/other-service-unreadable").then().statusCode(500)
                .contentType("application/problem+json");
    }

    @Test
    void pagingLinksKeepOtherParameters() {
        given().get("/probe/pages?page=2&per_page=10&q=x").then().statusCode(200)
                .header("X-Total-Count", "95")
                .header("Link", allOf(
                        containsString("page=3"), containsString("rel=\"next\""),
                        containsString("page=10"), containsString("rel=\"last\""),
                        containsString("rel=\"first\""), containsString("rel=\"prev\""),
                        containsString("q=x")))
                .body("offset", equalTo(10));
    }

    @Test
    void badPagingParametersAre400Problems() {
        given().get("/probe/pages?per_page=1000").then().statusCode(400)
                .body("errors[0].field", equalTo("per_page"));
        given().get("/probe/pages?page=abc").then().statusCode(400)
                .body("errors[0].field", equalTo("page"));
        given().get("/probe/pages?page=0").then().statusCode(400);
    }

    @Test
    void publicUrlsFollowForwardedHeaders() {
        given().header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "api.example.org")
                .header("X-Forwarded-Prefix", "/api")
                .get("/probe/pages?page=1&per_page=50").then().statusCode(200)
                .header("Link", containsString("<https://api.example.org/api/probe/pages?page=2&per_page=50>"));
    }

    @Test
    void timestampsHaveMilliseconds() {
        given().get("/probe/time").then().statusCode(200).body("at", equalTo("2026-01-18T11:03:26.395Z"));
    }
}
