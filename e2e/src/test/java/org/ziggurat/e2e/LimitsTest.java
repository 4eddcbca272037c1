package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/** What bounds the expensive paths, through the gateway: body sizes. */
class LimitsTest {

    /**
     * The review's finding: 20 MB of JSON from an anonymous caller reached an ordinary vocabulary
     * endpoint and was parsed before authorization (422). Every route but an import takes 1 MiB.
     */
    @Test
    void oversizedBodiesAreRefusedBeforeAnythingElse() {
        Platform.Person ada = Platform.signUp("big");
        String token = Platform.accessToken(ada, "user", "write", "update");
        String json = "{\"name\":\"" + "x".repeat(20_000_000) + "\"}";
        String schemes = "/" + ada.username() + "/vocab/schemes";
        anonymous().contentType("application/json").body(json).post(schemes).then().statusCode(413)
                .contentType("application/problem+json").body("status", equalTo(413));
        as(token).contentType("application/json").body(json).post(schemes).then().statusCode(413);
        anonymous().contentType("application/json").body(json).post("/people").then().statusCode(413);
        as(token).contentType("application/json").body(json).post("/" + ada.username() + "/repositories/r/data/events")
                .then().statusCode(413);
        // An import takes a large document: past 1 MiB it is still accepted as a job.
        as(token).contentType("application/json").body(java.util.Map.of("slug", "big", "title", "Big"))
                .post(schemes).then().statusCode(201);
        StringBuilder turtle = new StringBuilder("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n");
        for (int i = 0; turtle.length() < 1_500_000; i++) {
            turtle.append("<https://example.org/c/").append(i).append("> a skos:Concept ; skos:prefLabel \"concept number ")
                    .append(i).append("\"@en .\n");
        }
        as(token).contentType("text/turtle").body(turtle.toString()).post(schemes + "/big/import").then().statusCode(202);
    }
}
