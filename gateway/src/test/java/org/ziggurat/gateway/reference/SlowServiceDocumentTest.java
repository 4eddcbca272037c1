package org.ziggurat.gateway.reference;

import org.ziggurat.gateway.UpstreamStubs;
import org.ziggurat.gateway.route.PublicRoutes;
import org.ziggurat.platform.testing.PlatformTestKeys;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A service whose OpenAPI document comes later than the gateway waits for it, as on a busy
 * machine: until it answers in time the reference is "not ready", never a document without that
 * service's paths; then the merged document holds every service's paths, however many reads timed
 * out before.
 */
@QuarkusTest
@TestProfile(SlowServiceDocumentTest.SlowEventsService.class)
class SlowServiceDocumentTest {

    static final String EVENTS_PATH = "/{namespace}/repositories/{repository}/data/events";

    @Test
    void theReferenceIsNotReadyUntilEveryDocumentIsReadThenWhole() {
        // The first read timed out, and the gateway read again (and timed out again: 300, then 600 ms).
        await().atMost(Duration.ofSeconds(30)).until(() -> reads() >= 2);
        given().get("/api/openapi").then().statusCode(503).contentType("application/problem+json")
                .header("Retry-After", matchesPattern("[1-9][0-9]*"))
                .header("Cache-Control", "no-store")
                .body("detail", containsString("events-service"))
                .body("paths", nullValue());

        given().post(eventsStub() + "/__stub/in-time").then().statusCode(204);
        // Meanwhile every answer is "not ready" or the whole document.
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Response answer = given().get("/api/openapi");
            if (answer.statusCode() == 503) {
                return false;
            }
            answer.then().statusCode(200).body("paths.'" + EVENTS_PATH + "'.get", notNullValue());
            return true;
        });
        assertTrue(reads() >= 3, "events-service's document was read " + reads() + " times");

        given().get("/api/openapi").then().statusCode(200).contentType("application/json")
                .header("Cache-Control", "public, max-age=60")
                .body("openapi", equalTo("3.0.3"))
                .body("servers[0].url", equalTo("https://api.test.example/api"))
                .body("paths.'/oauth/token'.post", notNullValue())
                .body("paths.'/people/{username}'.get", notNullValue())
                .body("paths.'" + EVENTS_PATH + "'.get", notNullValue())
                .body("paths.'/internal/people'", nullValue())
                // Only what public paths use, directly or through another schema.
                .body("components.schemas.Problem", nullValue())
                .body("components.schemas.PasswordCheck", nullValue())
                .body("components.schemas.Place", notNullValue())
                .body("components.schemas.Person.properties.username", notNullValue())
                .body("components.schemas.Vocab_Person.properties.name", notNullValue())
                .body("paths.'/{namespace}/vocab/schemes'.get.responses.'200'.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/Vocab_Person"))
                .body("'x-unavailable-services'", nullValue())
                // The gateway's own operation (RFC 9728), which no service describes.
                .body("paths.'/.well-known/oauth-protected-resource'.get.responses.'200'.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/ProtectedResourceMetadata"))
                .body("paths.'/.well-known/oauth-protected-resource'.get.responses.'401'", nullValue())
                .body("components.schemas.ProtectedResourceMetadata.required", hasItem("authorization_servers"));
    }

    private static String eventsStub() {
        return ConfigProvider.getConfig().getValue("ziggurat.gateway.upstreams." + PublicRoutes.EVENTS, String.class);
    }

    private static int reads() {
        return Integer.parseInt(given().get(eventsStub() + "/__stub/reads").asString());
    }

    /** The stand-ins below instead of the module's (whose events-service listens nowhere), and a short first timeout. */
    public static class SlowEventsService implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ziggurat.gateway.openapi-timeout", "300ms");
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SlowDocuments.class),
                    new TestResourceEntry(PlatformTestKeys.class, Map.of("signer", "gateway")));
        }
    }

    /**
     * Every service's OpenAPI document ({@link UpstreamStubs#openApi}); events-service's answers
     * a minute late, past every read's timeout, until {@code POST /__stub/in-time}. {@code GET
     * /__stub/reads}: how many reads of it came.
     */
    public static class SlowDocuments implements QuarkusTestResourceLifecycleManager {

        private static final long LATE_MILLIS = 60_000;
        private Vertx vertx;
        private final AtomicInteger reads = new AtomicInteger();
        private final AtomicBoolean inTime = new AtomicBoolean();

        @Override
        public Map<String, String> start() {
            vertx = Vertx.vertx();
            Map<String, String> config = new HashMap<>();
            for (String service : List.of(PublicRoutes.AUTH, PublicRoutes.DIRECTORY, PublicRoutes.VOCAB, PublicRoutes.EVENTS)) {
                config.put("ziggurat.gateway.upstreams." + service, "http://127.0.0.1:" + serve(service));
            }
            config.put("ziggurat.gateway.public-base-url", "https://api.test.example/api");
            return config;
        }

        private int serve(String service) {
            try {
                return vertx.createHttpServer().requestHandler(request -> answer(service, request)).listen(0, "127.0.0.1")
                        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            } catch (Exception e) {
                throw new IllegalStateException("Cannot start the stand-in for " + service, e);
            }
        }

        private void answer(String service, HttpServerRequest request) {
            boolean events = service.equals(PublicRoutes.EVENTS);
            if (events && request.path().equals("/__stub/reads")) {
                request.response().end(Integer.toString(reads.get()));
            } else if (events && request.path().equals("/__stub/in-time")) {
                inTime.set(true);
                request.response().setStatusCode(204).end();
            } else if (!request.path().equals("/q/openapi")) {
                request.response().setStatusCode(404).end();
            } else if (!events) {
                document(service, request);
            } else {
                reads.incrementAndGet();
                if (inTime.get()) {
                    document(service, request);
                    return;
                }
                // Late: the gateway has given this read up by then.
                vertx.setTimer(LATE_MILLIS, t -> {
                    if (!request.response().closed()) {
                        document(service, request);
                    }
                });
            }
        }

        private static void document(String service, HttpServerRequest request) {
            request.response().putHeader("Content-Type", "application/json").end(UpstreamStubs.openApi(service));
        }

        @Override
        public void stop() {
            if (vertx != null) {
                vertx.close();
            }
        }
    }
}
