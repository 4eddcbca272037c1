package org.ziggurat.platform.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A test double of directory-service's {@code GET /internal/namespaces/:name?person_id=}, true to
 * its contract ({@link InternalApiContract}, which the real service keeps too). Namespaces: the
 * person alice (101); the public organization "lab" whose active member is alice; the private
 * organization "vault" whose active member is bob (102) and whose admin is {@value #ADMIN}; the
 * private organization {@value #STRICT}, which requires a second factor of its members alice (who
 * has one, and is its admin) and bob (who has none).
 */
public class NamespaceDirectoryDouble implements QuarkusTestResourceLifecycleManager {

    public static final long ALICE = 101;
    public static final long BOB = 102;
    /** The active admin of "vault" (and of nothing else). */
    public static final long ADMIN = 900;
    /** A person whose own namespace a test recovers from a maker who never proved the account (nobody else uses it). */
    public static final long RECOVERED = 950;
    /** A name whose look-up the directory answers 503, as when its database is away. */
    public static final String UNAVAILABLE = "unavailable";

    private record Ns(String kind, long id, String visibility, Set<Long> members, Set<Long> admins) {
    }

    /** A private organization that requires a second factor: alice, its admin, has one, bob has none. */
    public static final String STRICT = "strict";
    private static final Set<Long> WITH_SECOND_FACTOR = Set.of(ALICE);

    /** A private organization whose members a test changes ({@link #join}, {@link #leave}). */
    public static final String STUDIO = "studio";

    private static final Set<Long> STUDIO_MEMBERS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static final Map<String, Ns> NAMESPACES = Map.of(
            "alice", new Ns("person", ALICE, "public", Set.of(), Set.of()),
            "bob", new Ns("person", BOB, "public", Set.of(), Set.of()),
            "recovered", new Ns("person", RECOVERED, "public", Set.of(), Set.of()),
            "lab", new Ns("organization", 201, "public", Set.of(ALICE), Set.of()),
            "vault", new Ns("organization", 202, "private", Set.of(BOB), Set.of(ADMIN)),
            STUDIO, new Ns("organization", 203, "private", STUDIO_MEMBERS, Set.of()),
            STRICT, new Ns("organization", 204, "private", Set.of(ALICE, BOB), Set.of(ALICE)));

    /** As the real API reads {@code person_id}: absent, empty or 0 is anonymous; anything but an id is a 404. */
    private static final java.util.regex.Pattern PERSON_ID = java.util.regex.Pattern.compile("[1-9][0-9]{0,17}");

    /** The person becomes an active member of {@value #STUDIO}, as the directory would say from now on. */
    public static void join(long person) {
        STUDIO_MEMBERS.add(person);
    }

    /** The person is no longer a member of {@value #STUDIO}. */
    public static void leave(long person) {
        STUDIO_MEMBERS.remove(person);
    }

    /** A notice a service asked the directory to mail to a namespace's admins. */
    public record AdminNotice(String namespace, String kind, String subject, String body) {
    }

    /** The notices asked for, in order, as the directory would have queued them (to the admins known here). */
    public static final java.util.List<AdminNotice> ADMIN_NOTICES = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** As AdminNoticesResource: events-service alone; 422 without its parts, 404 for an unknown name, else 202. */
    private static void adminNotice(io.vertx.core.http.HttpServerRequest request, String name) {
        if (org.ziggurat.platform.testing.InternalCallers.refusal(request.getHeader("X-Platform-Token"), "events-service") != 0) {
            request.response().setStatusCode(InternalCallers.refusal(request.getHeader("X-Platform-Token"), "events-service")).end();
            return;
        }
        request.body().onSuccess(body -> {
            JsonObject notice;
            try {
                notice = body.toJsonObject();
            } catch (RuntimeException e) {
                notice = new JsonObject();
            }
            String kind = notice.getString("kind");
            String subject = notice.getString("subject");
            String text = notice.getString("body");
            if (kind == null || !kind.matches("[a-z][a-z_]{0,39}") || subject == null || subject.isBlank()
                    || subject.length() > 200 || text == null || text.isBlank() || text.length() > 10_000) {
                request.response().setStatusCode(422).putHeader("Content-Type", "application/problem+json").end("{}");
                return;
            }
            Ns ns = NAMESPACES.get(name.toLowerCase());
            if (ns == null) {
                request.response().setStatusCode(404).putHeader("Content-Type", "application/problem+json").end("{}");
                return;
            }
            ADMIN_NOTICES.add(new AdminNotice(name.toLowerCase(), kind, subject, text));
            int admins = ns.kind().equals("person") ? 1 : ns.admins().size();
            request.response().setStatusCode(202).putHeader("Content-Type", "application/json")
                    .end(new JsonObject().put("queued", admins).encode());
        });
    }

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(request -> {
                // As the real internal API: a verified service token signed by that service's key.
                int refusal = org.ziggurat.platform.testing.InternalCallers.refusal(request.getHeader("X-Platform-Token"));
                if (refusal != 0) {
                    request.response().setStatusCode(refusal).end();
                    return;
                }
                String path = request.path();
                if (path.startsWith("/internal/namespaces/") && path.endsWith("/admin-notices")
                        && request.method() == io.vertx.core.http.HttpMethod.POST) {
                    adminNotice(request, path.substring("/internal/namespaces/".length(), path.length() - "/admin-notices".length()));
                    return;
                }
                if (!path.startsWith("/internal/namespaces/")) {
                    request.response().setStatusCode(404).end();
                    return;
                }
                String name = path.substring("/internal/namespaces/".length()).toLowerCase();
                if (name.equals(UNAVAILABLE)) {
                    // As directory-service answers while its database is away.
                    request.response().setStatusCode(503).putHeader("Retry-After", "2")
                            .putHeader("Content-Type", "application/problem+json").end("{\"status\":503}");
                    return;
                }
                Ns ns = NAMESPACES.get(name);
                if (ns == null) {
                    request.response().setStatusCode(404).putHeader("Content-Type", "application/problem+json").end("{}");
                    return;
                }
                String personId = request.getParam("person_id", "");
                if (!personId.isEmpty() && !personId.equals("0") && !PERSON_ID.matcher(personId).matches()) {
                    request.response().setStatusCode(404).putHeader("Content-Type", "application/problem+json").end("{}");
                    return;
                }
                long person = personId.isEmpty() ? 0 : Long.parseLong(personId);
                boolean admin = ns.admins().contains(person);
                boolean member = admin || ns.members().contains(person);
                // As NamespaceLookups: a member of an organization that requires a second factor
                // has an outsider's rights without one, or without having signed in with it.
                boolean strict = name.equals(STRICT) && member;
                boolean noFactor = strict && !WITH_SECOND_FACTOR.contains(person);
                boolean notSignedInWithIt = strict && !noFactor && !"true".equals(request.getParam("second_factor_sign_in"));
                if (noFactor || notSignedInWithIt) {
                    admin = false;
                    member = false;
                }
                boolean own = ns.kind().equals("person") && ns.id() == person;
                JsonObject answer = new JsonObject().put("name", name).put("kind", ns.kind()).put("id", ns.id())
                        .put("visibility", ns.visibility())
                        .put("read", ns.visibility().equals("public") || member)
                        .put("write", own || (ns.kind().equals("organization") && member))
                        .put("admin", own || (ns.kind().equals("organization") && admin))
                        .put("second_factor_required", noFactor)
                        .put("second_factor_sign_in_required", notSignedInWithIt);
                request.response().putHeader("Content-Type", "application/json").end(answer.encode());
            }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            return Map.of("quarkus.rest-client.directory.url", "http://127.0.0.1:" + port);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the directory double", e);
        }
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
