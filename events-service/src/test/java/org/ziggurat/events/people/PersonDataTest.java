package org.ziggurat.events.people;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.TestTokens;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A person's data in events-service, for directory-service alone: their export's part lists the
 * events they sent anywhere; their erasure deletes their namespace's repositories with every event,
 * item and commit, and credits their events elsewhere to "ghost"; twice is once.
 */
@QuarkusTest
class PersonDataTest {

    private static final long GONE = 555_002;
    private static final String GONE_NAME = "gone-" + UUID.randomUUID().toString().substring(0, 6);

    @Inject
    Pool pool;

    private long one(String sql, Object... args) {
        return pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofSeconds(10)).iterator().next()
                .getLong(0);
    }

    private long repository(String namespace, String name) {
        return one("INSERT INTO repository (namespace, name) VALUES ($1, $2) RETURNING id", namespace, name);
    }

    private long event(long repository, String note) {
        return one("INSERT INTO data_event (repository_id, kind, note, creator_id, creator_username, commits_count) "
                + "VALUES ($1, 'FileUpload', $2, $3, $4, 1) RETURNING id", repository, note, GONE, GONE_NAME);
    }

    private static io.restassured.specification.RequestSpecification asDirectory() {
        return given().header("X-Platform-Token", TestTokens.service("directory-service")).contentType("application/json");
    }

    @Test
    void theExportListsThePersonsEventsAndTheErasureForgetsThem() {
        long own = repository(GONE_NAME, "notes");
        long ownEvent = event(own, "mine");
        long item = one("INSERT INTO item (repository_id, identifier_id, identifier_type, identifier_agent, revision, payload) "
                + "VALUES ($1, 'doi:1', 'DOI', 'crossref', 1, '{}'::jsonb) RETURNING id", own);
        one("INSERT INTO data_commit (event_id, position, type, item_id, revision, payload, changeset) "
                + "VALUES ($1, 0, 'create', $2, 1, '{}'::jsonb, '[]'::jsonb) RETURNING id", ownEvent, item);
        long shared = repository("alice", "shared-" + UUID.randomUUID().toString().substring(0, 8));
        long sharedEvent = event(shared, "for alice");

        asDirectory().get("/internal/people/" + GONE + "/export").then().statusCode(200)
                .body("data_events.note", equalTo(List.of("mine", "for alice")))
                .body("data_events[0].namespace", equalTo(GONE_NAME)).body("truncated", equalTo(false));
        given().header("X-Platform-Token", TestTokens.service("vocab-service")).get("/internal/people/" + GONE + "/export")
                .then().statusCode(403);
        given().get("/internal/people/" + GONE + "/export").then().statusCode(401);

        asDirectory().body(Map.of("person_id", GONE, "username", GONE_NAME)).post("/internal/erasures").then().statusCode(204);
        assertEquals(0, one("SELECT count(*) FROM repository WHERE namespace = $1", GONE_NAME));
        assertEquals(0, one("SELECT count(*) FROM data_event WHERE id = $1", ownEvent));
        assertEquals(0, one("SELECT count(*) FROM item WHERE id = $1", item));
        assertEquals(1, one("SELECT count(*) FROM data_event WHERE id = $1 AND creator_username = 'ghost'", sharedEvent));
        asDirectory().body(Map.of("person_id", GONE, "username", GONE_NAME)).post("/internal/erasures").then().statusCode(204);
        assertEquals(1, one("SELECT count(*) FROM data_event WHERE id = $1 AND creator_username = 'ghost'", sharedEvent));
        asDirectory().body("{}").post("/internal/erasures").then().statusCode(422);
    }
}
