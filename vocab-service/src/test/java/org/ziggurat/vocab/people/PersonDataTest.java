package org.ziggurat.vocab.people;

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
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;

/**
 * A person's data in vocab-service, for directory-service alone: their export's part lists what
 * they created anywhere; their erasure deletes their namespace's vocabularies and credits what
 * they made in others' to "ghost" (the pages showing it get a new revision); twice is once.
 */
@QuarkusTest
class PersonDataTest {

    /** A person who made things and is then deleted; not one of the double's people, whom other tests use. */
    private static final long GONE = 555_001;
    private static final String GONE_NAME = "gone-" + UUID.randomUUID().toString().substring(0, 6);

    @Inject
    Pool pool;

    private long one(String sql, Object... args) {
        return pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofSeconds(10)).iterator().next()
                .getLong(0);
    }

    private static io.restassured.specification.RequestSpecification asDirectory() {
        return given().header("X-Platform-Token", TestTokens.service("directory-service")).contentType("application/json");
    }

    @Test
    void theExportListsWhatThePersonMadeAndTheErasureForgetsThem() {
        // alice's vocabulary, with a concept the gone person made and one they changed.
        String slug = "shared-" + UUID.randomUUID().toString().substring(0, 8);
        given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "write")).contentType("application/json")
                .body(Map.of("slug", slug, "abbr", "SH", "title", "Shared")).post("/alice/vocab/schemes").then().statusCode(201);
        long shared = one("SELECT id FROM scheme WHERE namespace = 'alice' AND slug = $1", slug);
        String made = String.format("%08x-fff1-%04x-%04x", new java.util.Random().nextInt(), new java.util.Random().nextInt(0x10000),
                new java.util.Random().nextInt(0x10000));
        pool.preparedQuery("INSERT INTO concept (id, scheme_id, namespace, status, creator_id, creator_username, contributors) "
                + "VALUES ($1, $2, 'alice', 'Stable', $3, $4, ARRAY[$4, 'alice'])").execute(Tuple.of(made, shared, GONE, GONE_NAME))
                .await().atMost(Duration.ofSeconds(10));
        pool.preparedQuery("INSERT INTO label (concept_id, position, type, body, language) VALUES ($1, 0, 'Preferred', "
                + "'Made by the gone', 'eng')").execute(Tuple.of(made)).await().atMost(Duration.ofSeconds(10));
        // Their own namespace's vocabulary.
        pool.preparedQuery("INSERT INTO scheme (namespace, slug, abbr, title, creator_id, creator_username) "
                + "VALUES ($1, 'mine', 'MI', 'Mine', $2, $1)").execute(Tuple.of(GONE_NAME, GONE))
                .await().atMost(Duration.ofSeconds(10));

        asDirectory().get("/internal/people/" + GONE + "/export").then().statusCode(200)
                .body("schemes.slug", equalTo(List.of("mine"))).body("concepts.id", equalTo(List.of(made)))
                .body("concepts[0].labels[0].body", equalTo("Made by the gone")).body("truncated", equalTo(false));
        given().header("X-Platform-Token", TestTokens.service("events-service")).get("/internal/people/" + GONE + "/export")
                .then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "write", "account"))
                .get("/internal/people/" + GONE + "/export").then().statusCode(403);
        given().get("/internal/people/" + GONE + "/export").then().statusCode(401);

        long revision = one("SELECT revision FROM scheme WHERE id = $1", shared);
        asDirectory().body(Map.of("person_id", GONE, "username", GONE_NAME)).post("/internal/erasures").then().statusCode(204);
        assertEquals(0, one("SELECT count(*) FROM scheme WHERE namespace = $1", GONE_NAME));
        assertEquals(1, one("SELECT count(*) FROM concept WHERE id = $1 AND creator_username = 'ghost' "
                + "AND contributors = ARRAY['ghost', 'alice']", made));
        assertNotEquals(revision, one("SELECT revision FROM scheme WHERE id = $1", shared), "its pages are read anew");
        given().get("/alice/vocab/schemes/" + slug + "/concepts").then().statusCode(200)
                .body("concepts.creator.name", hasItem("ghost"));

        long after = one("SELECT revision FROM scheme WHERE id = $1", shared);
        asDirectory().body(Map.of("person_id", GONE, "username", GONE_NAME)).post("/internal/erasures").then().statusCode(204);
        assertEquals(after, one("SELECT revision FROM scheme WHERE id = $1", shared), "nothing left to change");
        asDirectory().body(Map.of("username", GONE_NAME)).post("/internal/erasures").then().statusCode(422);
        given().header("X-Platform-Token", TestTokens.service("auth-service")).contentType("application/json")
                .body(Map.of("person_id", GONE, "username", GONE_NAME)).post("/internal/erasures").then().statusCode(403);
    }
}
