package org.ziggurat.vocab.concepts;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.vocabulary.SKOS;
import org.eclipse.rdf4j.model.vocabulary.SKOSXL;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.TestTokens;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB;
import static org.ziggurat.vocab.concepts.VocabularyTest.asAlice;
import static org.ziggurat.vocab.concepts.VocabularyTest.concept;
import static org.ziggurat.vocab.concepts.VocabularyTest.label;
import static org.ziggurat.vocab.concepts.VocabularyTest.scheme;

@QuarkusTest
class SkosImportExportTest {

    static final List<String> FORMATS = List.of("text/turtle", "application/rdf+xml", "application/ld+json");

    /** A small vocabulary with everything a concept can say. */
    static String richScheme() {
        String slug = scheme("alice", asAlice("write"));
        String mesopotamia = concept(slug, Map.of("status", "Stable", "labels", List.of(
                label("Preferred", "Mesopotamia", "en"), label("Preferred", "Μεσοποταμία", "grc"))));
        concept(slug, Map.of("status", "Testing", "broader", List.of(mesopotamia),
                "labels", List.of(label("Preferred", "Babylon", "en"), label("Alternative", "Babel", "en"),
                        label("Hidden", "babylon city", "en"),
                        Map.of("type", "Preferred", "body", "Bābili", "language", "akk", "vernacular", "Vernacular",
                                "historical", "Historical", "abbreviation", false),
                        Map.of("type", "Alternative", "body", "BAB", "language", "en", "abbreviation", true)),
                "notes", List.of(Map.of("type", "Definition", "body", "A city on the Euphrates.", "language", "en"),
                        Map.of("type", "History", "body", "Capitale d'Hammurabi.", "language", "fr")),
                "matches", List.of(Map.of("property", "exactMatch", "url", "https://pleiades.stoa.org/places/893951"),
                        Map.of("property", "closeMatch", "url", "https://www.wikidata.org/wiki/Q5684"))));
        concept(slug, Map.of("broader", List.of(mesopotamia), "labels", List.of(label("Preferred", "Ur", "en"))));
        return slug;
    }

    static Response export(String slug, String mediaType) {
        return given().accept(mediaType).get("/alice/vocab/schemes/" + slug).then().statusCode(200)
                .contentType(containsString(mediaType)).extract().response();
    }

    static Map<String, Object> importInto(String slug, String mediaType, byte[] document) {
        return importInto("alice", slug, mediaType, document);
    }

    static Map<String, Object> importInto(String namespace, String slug, String mediaType, byte[] document) {
        return finished(startImport(namespace, slug, mediaType, document));
    }

    /** The job's address. */
    static String startImport(String namespace, String slug, String mediaType, byte[] document) {
        return asAlice("write", "update").contentType(mediaType).body(document)
                .post("/" + namespace + "/vocab/schemes/" + slug + "/import").then().statusCode(202)
                .body("state", org.hamcrest.Matchers.oneOf("queued", "running", "succeeded"))
                .extract().header("Location");
    }

    static Map<String, Object> finished(String location) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3)); // a bound for a stuck import, not a speed: a busy machine is slow
        while (Instant.now().isBefore(deadline)) {
            Map<String, Object> job = asAlice("write").get(location).then().statusCode(200).extract().jsonPath().getMap("");
            if (job.get("state").equals("succeeded") || job.get("state").equals("failed")) {
                return job;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("the import did not finish within three minutes: " + location);
    }

    /** Everything a scheme's concepts say, keyed by default label, with relations named by label too. */
    static Map<String, Set<String>> contents(String slug) {
        List<Map<String, Object>> concepts = given().queryParam("per_page", 100).get("/alice/vocab/schemes/" + slug + "/concepts")
                .then().statusCode(200).extract().jsonPath().getList("concepts");
        Map<String, Set<String>> byLabel = new HashMap<>();
        for (Map<String, Object> c : concepts) {
            Set<String> facts = new TreeSet<>();
            facts.add("status " + c.get("status"));
            for (Object l : (List<?>) c.get("labels")) {
                facts.add("label " + l);
            }
            for (Object n : (List<?>) c.get("notes")) {
                facts.add("note " + n);
            }
            for (Object m : (List<?>) c.get("matches")) {
                facts.add("match " + m);
            }
            for (Object b : (List<?>) c.get("broader")) {
                facts.add("broader " + ((Map<?, ?>) b).get("default_label"));
            }
            for (Object n : (List<?>) c.get("narrower")) {
                facts.add("narrower " + ((Map<?, ?>) n).get("default_label"));
            }
            byLabel.put((String) c.get("default_label"), facts);
        }
        return byLabel;
    }

    @Test
    void exportIsSkosInEachFormat() throws Exception {
        String slug = richScheme();
        for (String mediaType : FORMATS) {
            Response response = export(slug, mediaType);
            Model model = Rio.parse(new ByteArrayInputStream(response.asByteArray()), "",
                    Rio.getParserFormatForMIMEType(mediaType).orElseThrow());
            assertEquals(1, model.filter(null, org.eclipse.rdf4j.model.vocabulary.RDF.TYPE, SKOS.CONCEPT_SCHEME).size());
            assertEquals(3, model.filter(null, org.eclipse.rdf4j.model.vocabulary.RDF.TYPE, SKOS.CONCEPT).size(), mediaType);
            assertTrue(model.contains(null, SKOS.PREF_LABEL, org.eclipse.rdf4j.model.util.Values.literal("Babylon", "en")));
            assertTrue(model.contains(null, SKOS.PREF_LABEL, org.eclipse.rdf4j.model.util.Values.literal("Μεσοποταμία", "grc")));
            assertEquals(2, model.filter(null, SKOS.BROADER, null).size());
            assertEquals(2, model.filter(null, SKOS.NARROWER, null).size());
            // Labels with attributes are SKOS-XL labels as well.
            assertEquals(2, model.filter(null, SKOSXL.LITERAL_FORM, null).size(), mediaType);
        }
        given().accept("application/json").get("/alice/vocab/schemes/" + slug).then().statusCode(200).body("id", equalTo(slug));
        given().accept("*/*").get("/alice/vocab/schemes/" + slug).then().statusCode(200)
                .contentType(containsString("application/json"));
        given().accept("text/turtle;q=0.5, application/rdf+xml").get("/alice/vocab/schemes/" + slug).then().statusCode(200)
                .contentType(containsString("application/rdf+xml"));
        given().accept("image/png").get("/alice/vocab/schemes/" + slug).then().statusCode(406)
                .contentType(containsString("problem+json"));
    }

    @Test
    void aRoundTripKeepsEveryLabelNoteAndRelation() {
        String source = richScheme();
        Map<String, Set<String>> expected = contents(source);
        assertEquals(3, expected.size());
        for (String mediaType : FORMATS) {
            byte[] document = export(source, mediaType).asByteArray();
            String target = scheme("alice", asAlice("write"));
            Map<String, Object> job = importInto(target, mediaType, document);
            assertEquals("succeeded", job.get("state"), mediaType + ": " + job);
            assertEquals(3, job.get("concepts_created"));
            assertEquals(3, job.get("concepts_done"));
            assertEquals(expected, contents(target), mediaType);
        }
    }

    @Test
    void reimportingAnExportReplacesTheSameConcepts() {
        String slug = richScheme();
        List<String> ids = given().get("/alice/vocab/schemes/" + slug + "/concepts").then().extract().path("concepts.id");
        String turtle = export(slug, "text/turtle").asString().replace("\"Ur\"@en", "\"Ur of the Chaldees\"@en");
        Map<String, Object> job = importInto(slug, "text/turtle", turtle.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("succeeded", job.get("state"), job.toString());
        assertEquals(0, job.get("concepts_created"));
        assertEquals(3, job.get("concepts_replaced"));
        List<String> after = given().get("/alice/vocab/schemes/" + slug + "/concepts").then().extract().path("concepts.id");
        assertEquals(new TreeSet<>(ids), new TreeSet<>(after));
        assertTrue(contents(slug).containsKey("Ur of the Chaldees"));
    }

    static final String TURTLE_PREFIXES = "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
            + "@prefix ex: <https://example.org/places/> .\n";

    @Test
    void aDocumentThatBreaksTheRulesImportsNothingAndSaysWhy() {
        String slug = scheme("alice", asAlice("write"));
        Map<String, Object> twoPreferred = importInto(slug, "text/turtle", (TURTLE_PREFIXES
                + "ex:nineveh a skos:Concept ; skos:prefLabel \"Nineveh\"@en, \"Ninua\"@en .\n"
                + "ex:assur a skos:Concept ; skos:prefLabel \"Assur\"@en .\n").getBytes());
        assertEquals("failed", twoPreferred.get("state"));
        assertTrue(twoPreferred.get("errors") instanceof List<?> list && !list.isEmpty(), twoPreferred.toString());
        assertTrue(twoPreferred.get("warnings") instanceof List<?>, twoPreferred.toString());
        assertTrue(twoPreferred.get("errors").toString().contains("https://example.org/places/nineveh labels[1].type"),
                twoPreferred.toString());
        Map<String, Object> cycle = importInto(slug, "text/turtle", (TURTLE_PREFIXES
                + "ex:a a skos:Concept ; skos:prefLabel \"A\"@en ; skos:broader ex:b .\n"
                + "ex:b a skos:Concept ; skos:prefLabel \"B\"@en ; skos:broader ex:c .\n"
                + "ex:c a skos:Concept ; skos:prefLabel \"C\"@en ; skos:broader ex:a .\n").getBytes());
        assertEquals("failed", cycle.get("state"));
        assertTrue(cycle.get("errors").toString().contains("cycle"), cycle.toString());
        Map<String, Object> broken = importInto(slug, "text/turtle", "this is not turtle".getBytes());
        assertEquals("failed", broken.get("state"));
        assertTrue(broken.get("errors").toString().contains("document"), broken.toString());
        // Nothing of the refused documents was kept.
        given().get("/alice/vocab/schemes/" + slug + "/concepts").then().body("concepts", org.hamcrest.Matchers.empty());

        Map<String, Object> dangling = importInto(slug, "text/turtle", (TURTLE_PREFIXES
                + "ex:kish a skos:Concept ; skos:prefLabel \"Kish\" ; skos:broader ex:sumer .\n").getBytes());
        assertEquals("succeeded", dangling.get("state"));
        assertTrue(dangling.get("warnings").toString().contains("https://example.org/places/sumer"), dangling.toString());
        // An untagged literal is in the scheme's default language (English here).
        given().get("/alice/vocab/schemes/" + slug + "/concepts").then().body("concepts[0].labels[0].language",
                equalTo("eng (en) - English"));
    }

    @Test
    void nothingOutsideTheDocumentIsFetched() throws Exception {
        String slug = scheme("alice", asAlice("write"));
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n"
                + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
                + "xmlns:skos=\"http://www.w3.org/2004/02/skos/core#\">\n"
                + "<skos:Concept rdf:about=\"https://example.org/x\"><skos:prefLabel xml:lang=\"en\">&secret;</skos:prefLabel>"
                + "</skos:Concept></rdf:RDF>";
        Map<String, Object> job = importInto(slug, "application/rdf+xml", xxe.getBytes());
        assertEquals("failed", job.get("state"));
        assertFalse(job.toString().contains("root:"), job.toString());
        // A remote JSON-LD context that a server here would really serve: never asked for.
        java.util.concurrent.atomic.AtomicInteger fetched = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer contexts = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        contexts.createContext("/context.jsonld", exchange -> {
            fetched.incrementAndGet();
            byte[] body = "{\"@context\": {\"label\": \"http://www.w3.org/2004/02/skos/core#prefLabel\"}}".getBytes();
            exchange.getResponseHeaders().set("Content-Type", "application/ld+json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        contexts.start();
        try {
            String remoteContext = "{\"@context\": \"http://127.0.0.1:" + contexts.getAddress().getPort() + "/context.jsonld\", "
                    + "\"@id\": \"https://example.org/x\", \"@type\": \"http://www.w3.org/2004/02/skos/core#Concept\", "
                    + "\"label\": \"X\"}";
            Map<String, Object> jsonld = importInto(slug, "application/ld+json", remoteContext.getBytes());
            assertEquals("failed", jsonld.get("state"), jsonld.toString());
            assertEquals(0, fetched.get(), "the import fetched the remote context");
        } finally {
            contexts.stop(0);
        }
    }

    @Test
    void importsNeedRightsScopesAndAKnownFormat() {
        String slug = scheme("alice", asAlice("write"));
        byte[] doc = (TURTLE_PREFIXES + "ex:ur a skos:Concept ; skos:prefLabel \"Ur\"@en .\n").getBytes();
        asAlice("write", "update").contentType("text/plain").body(doc).post("/alice/vocab/schemes/" + slug + "/import")
                .then().statusCode(415).contentType(containsString("problem+json"));
        asAlice("write").contentType("text/turtle").body(doc).post("/alice/vocab/schemes/" + slug + "/import")
                .then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write", "update")).contentType("text/turtle").body(doc)
                .post("/alice/vocab/schemes/" + slug + "/import").then().statusCode(403);
        given().contentType("text/turtle").body(doc).post("/alice/vocab/schemes/" + slug + "/import").then().statusCode(401);
        asAlice("write", "update").contentType("text/turtle").body(new byte[0]).post("/alice/vocab/schemes/" + slug + "/import")
                .then().statusCode(422);
        asAlice("write", "update").contentType("text/turtle").body(doc).post("/alice/vocab/schemes/nope/import")
                .then().statusCode(404);
        String location = asAlice("write", "update").contentType("text/turtle").body(doc)
                .post("/alice/vocab/schemes/" + slug + "/import").then().statusCode(202).extract().header("Location");
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write")).get(location).then().statusCode(403);
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write")).get("/bob/vocab/imports/"
                + location.substring(location.lastIndexOf('/') + 1)).then().statusCode(404);
        asAlice("write").get("/alice/vocab/imports/abc").then().statusCode(404);
        given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", "write")).get(location).then().statusCode(200)
                .body("scheme.id", equalTo(slug)).body("url", equalTo(location)).body("format", equalTo("text/turtle"))
                .body("state", not(equalTo("failed")));
    }

    @Test
    void aLargeImportLeavesThePlannerCurrentStatistics() throws Exception {
        StringBuilder doc = new StringBuilder("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n");
        for (int i = 0; i < 1200; i++) {
            doc.append("<https://example.org/bulk/").append(i).append("> a skos:Concept ; skos:prefLabel \"bulk ")
                    .append(i).append("\"@en , \"masse ").append(i).append("\"@fr .\n");
        }
        // In the organization's namespace: 1,200 concepts in alice's would push other tests' concepts
        // off the first pages of her namespace's list.
        String slug = scheme("lab", asAlice("write"));
        Map<String, Object> job = importInto("lab", slug, "text/turtle",
                doc.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("succeeded", job.get("state"), job.toString());
        // ANALYZE reads every page of tables this small, so its row estimate is then exact; a stale
        // one (the estimate of the last analyze, before these 1,200 concepts) shows it did not run.
        try (var c = ServiceDatabase.connect();
                var s = c.createStatement();
                var rs = s.executeQuery("SELECT c.reltuples::bigint, (SELECT count(*) FROM vocab.concept) FROM pg_class c "
                        + "WHERE c.oid = 'vocab.concept'::regclass")) {
            assertTrue(rs.next());
            assertEquals(rs.getLong(2), rs.getLong(1), "the planner's row count of concept after the import");
        }
    }

    /**
     * A replica that is alive keeps its import however long a step takes: here the first batch waits
     * on a lock the test holds for more than two leases (6 s in tests). The lease must move on while
     * nothing of the import moves, and the job is never claimed again (one attempt) and succeeds
     * once the lock goes. With beats only between batches, the lease ran out and another claim took
     * the job from a live replica.
     */
    @Test
    void aRunningImportKeepsItsLeaseWhileAStepWaits() throws Exception {
        String slug = scheme("alice", asAlice("write"));
        try (var lock = ServiceDatabase.connect(); var watch = ServiceDatabase.connect(); var s = watch.createStatement()) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE vocab.concept IN SHARE MODE");
            String location = startImport("alice", slug, "text/turtle", ("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
                    + "<https://example.org/held/1> a skos:Concept ; skos:prefLabel \"held\"@en .\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            long id = Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
            // Blocked on the lock: the import's write waits, and its job is running.
            org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> waitingOnLock(s));
            java.sql.Timestamp claimedUntil = leaseOf(s, id);
            // Time passes beyond the lease the job had when it was seen waiting...
            org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> now(s).after(claimedUntil));
            // ... and the lease was renewed meanwhile, with the write still waiting and the first claim its only one.
            assertTrue(waitingOnLock(s), "the import was still waiting on the lock");
            assertTrue(leaseOf(s, id).after(claimedUntil), "the lease moved on while the import waited");
            try (var rs = s.executeQuery("SELECT attempts, state FROM vocab.import_job WHERE id = " + id)) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1), "claimed once");
                assertEquals("running", rs.getString(2));
            }
            lock.rollback();
            Map<String, Object> job = finished(location);
            assertEquals("succeeded", job.get("state"), job.toString());
        }
        given().get("/alice/vocab/schemes/" + slug + "/concepts").then().statusCode(200)
                .body("concepts.size()", equalTo(1));
    }

    /** Whether a write to the concepts waits for the test's lock. */
    private static boolean waitingOnLock(java.sql.Statement s) throws java.sql.SQLException {
        try (var rs = s.executeQuery("SELECT count(*) FROM pg_locks WHERE relation = 'vocab.concept'::regclass AND NOT granted")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }

    private static java.sql.Timestamp leaseOf(java.sql.Statement s, long id) throws java.sql.SQLException {
        try (var rs = s.executeQuery("SELECT next_attempt_at FROM vocab.import_job WHERE id = " + id)) {
            assertTrue(rs.next());
            return rs.getTimestamp(1);
        }
    }

    private static java.sql.Timestamp now(java.sql.Statement s) throws java.sql.SQLException {
        try (var rs = s.executeQuery("SELECT clock_timestamp()")) {
            rs.next();
            return rs.getTimestamp(1);
        }
    }
}
