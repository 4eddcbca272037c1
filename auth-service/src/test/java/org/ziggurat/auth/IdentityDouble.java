package org.ziggurat.auth;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The directory double's linked identities, with the directory's rules (LinkedIdentitiesTest holds
 * the real one to them): who an identity signs in (404: nobody; never by a matching address; a link
 * of another issuer is another identity), a new account with one (409 for a taken name, address or
 * identity; 422 naming the field; with an address the provider did not verify, 202 and nothing made
 * until the mailed link's token is confirmed, {@link #confirmationToken}), a link only to a person
 * the caller names (409 when someone else's), the last way to sign in kept, the second factor due
 * after a provider for people who have one unless they turned it off.
 */
public final class IdentityDouble {

    private static final Pattern USERNAME = Pattern.compile("[a-z0-9](?:-?[a-z0-9])*");

    record Link(long id, long personId, String provider, String subject, JsonObject identity, Instant createdAt) {
    }

    /** People made through a provider: id to username and address (they have no password). */
    static final Map<Long, String[]> CREATED = new ConcurrentHashMap<>();
    static final List<Link> LINKS = new CopyOnWriteArrayList<>();
    /** People who turned the second factor after a provider off. */
    static final Set<Long> NO_FACTOR_AFTER_UPSTREAM = ConcurrentHashMap.newKeySet();
    /** New accounts waiting for their address: the mailed link's token to the sign-up's body. */
    public static final Map<String, JsonObject> PENDING = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong(600);
    private static final AtomicLong LINK_IDS = new AtomicLong(1);

    private IdentityDouble() {
    }

    /** Whether the provider's subject is linked to the person. */
    public static boolean linkedTo(String provider, String subject, long personId) {
        return LINKS.stream().anyMatch(l -> l.provider().equals(provider) && l.subject().equals(subject) && l.personId() == personId);
    }

    /** Whether the person turned their second factor after a provider's sign-in off. */
    public static boolean noSecondFactorAfterUpstream(long personId) {
        return NO_FACTOR_AFTER_UPSTREAM.contains(personId);
    }

    /** The token of the link mailed to {@code email} for a new account (the latest); null when none. */
    public static String confirmationToken(String email) {
        return PENDING.entrySet().stream().filter(e -> e.getValue().getString("email").equalsIgnoreCase(email))
                .map(Map.Entry::getKey).reduce((first, second) -> second).orElse(null);
    }

    /** Whether a person (made here or one of the double's) has this address. */
    public static boolean addressTaken(String email) {
        return DirectoryDouble.PEOPLE.values().stream().anyMatch(p -> (p.username() + "@example.org").equalsIgnoreCase(email))
                || CREATED.values().stream().anyMatch(c -> c[1].equalsIgnoreCase(email));
    }

    static boolean handles(String path) {
        return path.equals("/internal/identity-sign-ins") || path.equals("/internal/identity-sign-ups")
                || path.equals("/internal/identity-sign-up-confirmations") || path.equals("/internal/identity-sign-up-lookups")
                || path.matches("/internal/people/\\d+/identities(/\\d+)?") || path.matches("/internal/people/\\d+/upstream-settings");
    }

    /** A person the double knows: one of its people, or one made here; null for none. */
    static String username(long id) {
        String[] created = CREATED.get(id);
        if (created != null) {
            return created[0];
        }
        return DirectoryDouble.PEOPLE.values().stream().filter(p -> p.id() == id).map(DirectoryDouble.Person::username)
                .findFirst().orElse(null);
    }

    static synchronized void handle(HttpServerRequest request, JsonObject body) {
        String path = request.path();
        String method = request.method().name();
        if (path.equals("/internal/identity-sign-ins") && method.equals("POST")) {
            JsonObject identity = checked(request, body);
            if (identity == null) {
                return;
            }
            Link link = find(identity.getString("provider"), identity.getString("subject"), identity.getString("issuer"));
            if (link == null) {
                json(request, 404, new JsonObject().put("status", 404));
                return;
            }
            boolean factor = DirectoryDouble.SECOND_FACTOR.contains(link.personId());
            json(request, 200, new JsonObject().put("person_id", link.personId()).put("username", username(link.personId()))
                    .put("second_factor", factor)
                    .put("second_factor_due", factor && !NO_FACTOR_AFTER_UPSTREAM.contains(link.personId())));
        } else if (path.equals("/internal/identity-sign-ups") && method.equals("POST")) {
            signUp(request, body);
        } else if (path.equals("/internal/identity-sign-up-lookups") && method.equals("POST")) {
            JsonObject pending = body == null || body.getString("token") == null ? null : PENDING.get(body.getString("token"));
            if (pending == null) {
                json(request, 410, new JsonObject().put("status", 410));
                return;
            }
            JsonObject identity = pending.getJsonObject("identity");
            json(request, 200, new JsonObject().put("username", pending.getString("username"))
                    .put("email", pending.getString("email")).put("provider", identity.getString("provider"))
                    .put("issuer", identity.getString("issuer")));
        } else if (path.equals("/internal/identity-sign-up-confirmations") && method.equals("POST")) {
            JsonObject pending = body == null || body.getString("token") == null ? null : PENDING.remove(body.getString("token"));
            if (pending == null) {
                json(request, 410, new JsonObject().put("status", 410));
                return;
            }
            make(request, pending, true);
        } else if (path.matches("/internal/people/\\d+/identities") && method.equals("POST")) {
            long person = Long.parseLong(path.split("/")[3]);
            JsonObject identity = checked(request, body == null ? null : body.getJsonObject("identity"));
            if (identity == null) {
                return;
            }
            if (username(person) == null) {
                json(request, 404, new JsonObject().put("status", 404));
                return;
            }
            Link existing = find(identity.getString("provider"), identity.getString("subject"), identity.getString("issuer"));
            if (existing != null) {
                json(request, existing.personId() == person ? 200 : 409, new JsonObject().put("status", 409)
                        .put("detail", "This identity is linked to another account."));
                return;
            }
            add(person, identity);
            json(request, 201, new JsonObject());
        } else if (path.matches("/internal/people/\\d+/identities") && method.equals("GET")) {
            long person = Long.parseLong(path.split("/")[3]);
            JsonArray out = new JsonArray();
            LINKS.stream().filter(l -> l.personId() == person).forEach(l -> out.add(new JsonObject().put("id", l.id())
                    .put("provider", l.provider()).put("subject", l.subject())
                    .put("display_name", l.identity().getString("display_name")).put("email", l.identity().getString("email"))
                    .put("email_verified", l.identity().getBoolean("email_verified", false))
                    .put("assurance", l.identity().getJsonArray("assurance", new JsonArray()))
                    .put("orcid", l.identity().getString("orcid")).put("created_at", l.createdAt().toString())
                    .put("last_used_at", l.createdAt().toString())));
            json(request, 200, out);
        } else if (path.matches("/internal/people/\\d+/identities/\\d+") && method.equals("DELETE")) {
            long person = Long.parseLong(path.split("/")[3]);
            long id = Long.parseLong(path.split("/")[5]);
            Link link = LINKS.stream().filter(l -> l.id() == id && l.personId() == person).findFirst().orElse(null);
            if (link == null) {
                json(request, 404, new JsonObject().put("status", 404));
                return;
            }
            boolean password = !CREATED.containsKey(person);
            long others = LINKS.stream().filter(l -> l.personId() == person && l.id() != id).count();
            if (!password && others == 0) {
                json(request, 409, new JsonObject().put("status", 409).put("detail", "This is the last way to sign in."));
                return;
            }
            LINKS.remove(link);
            request.response().setStatusCode(204).end();
        } else if (path.matches("/internal/people/\\d+/upstream-settings")) {
            long person = Long.parseLong(path.split("/")[3]);
            if (username(person) == null) {
                json(request, 404, new JsonObject().put("status", 404));
            } else if (method.equals("GET")) {
                json(request, 200, new JsonObject().put("second_factor_after_upstream", !NO_FACTOR_AFTER_UPSTREAM.contains(person)));
            } else if (method.equals("PUT") && body != null && body.getValue("second_factor_after_upstream") instanceof Boolean on) {
                if (on) {
                    NO_FACTOR_AFTER_UPSTREAM.remove(person);
                } else {
                    NO_FACTOR_AFTER_UPSTREAM.add(person);
                }
                request.response().setStatusCode(204).end();
            } else {
                json(request, 422, new JsonObject().put("status", 422));
            }
        } else {
            request.response().setStatusCode(405).end();
        }
    }

    private static void signUp(HttpServerRequest request, JsonObject body) {
        JsonObject identity = checked(request, body == null ? null : body.getJsonObject("identity"));
        if (identity == null) {
            return;
        }
        String username = body.getString("username");
        String email = body.getString("email");
        if (username == null || username.length() > 39 || !USERNAME.matcher(username).matches()) {
            invalid(request, "username");
            return;
        }
        if (email == null || !email.matches("[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]+)+")) {
            invalid(request, "email");
            return;
        }
        boolean verified = identity.getBoolean("email_verified", false) && email.equalsIgnoreCase(identity.getString("email"));
        if (verified) {
            make(request, body, true);
            return;
        }
        // As the real one: an account's address is answered as a free one (its owner is mailed instead);
        // a taken name or identity is 409.
        boolean addressTaken = addressTaken(email);
        if (taken(request, addressTaken ? body.copy().put("email", "free-" + java.util.UUID.randomUUID() + "@double.example")
                : body)) {
            return;
        }
        if (addressTaken) {
            json(request, 202, new JsonObject().put("id", 0).put("username", username).put("email_verified", false)
                    .put("confirmation_mailed", true));
            return;
        }
        // Another address than the verified one: nothing is made until the mailed link is used.
        PENDING.put("zet_" + java.util.UUID.randomUUID(), body.copy());
        json(request, 202, new JsonObject().put("id", 0).put("username", username).put("email_verified", false)
                .put("confirmation_mailed", true));
    }

    /** 409 answered when the sign-up's name, address or identity is taken. */
    private static boolean taken(HttpServerRequest request, JsonObject body) {
        String username = body.getString("username");
        String email = body.getString("email");
        JsonObject identity = body.getJsonObject("identity");
        boolean nameTaken = DirectoryDouble.PEOPLE.containsKey(username) || CREATED.values().stream().anyMatch(c -> c[0].equals(username));
        boolean addressTaken = addressTaken(email);
        if (nameTaken || addressTaken || find(identity.getString("provider"), identity.getString("subject"),
                identity.getString("issuer")) != null) {
            json(request, 409, new JsonObject().put("status", 409).put("detail", nameTaken ? "This name is taken."
                    : addressTaken ? "An account with this email address exists already."
                    : "This identity is linked to another account already."));
            return true;
        }
        return false;
    }

    /** The account, made now with its address confirmed, and the identity linked (201). */
    private static void make(HttpServerRequest request, JsonObject body, boolean verified) {
        if (taken(request, body)) {
            return;
        }
        long id = IDS.incrementAndGet();
        CREATED.put(id, new String[] {body.getString("username"), body.getString("email")});
        add(id, body.getJsonObject("identity"));
        json(request, 201, new JsonObject().put("id", id).put("username", body.getString("username"))
                .put("email_verified", verified).put("confirmation_mailed", false));
    }

    /**
     * The research claims the real directory makes: memberships as entitlements (the caller leaves
     * out those the sign-in does not meet), links' iD; no assurance (auth-service keeps the sign-in's).
     */
    static JsonObject research(long person, JsonArray organizations) {
        String ns = "urn:geant:example.org:ziggurat";
        JsonArray entitlements = new JsonArray();
        organizations.stream().map(JsonObject.class::cast).sorted(java.util.Comparator.comparing(o -> o.getString("name")))
                .forEach(o -> {
                    entitlements.add(ns + ":group:" + o.getString("name") + "#example.org");
                    entitlements.add(ns + ":group:" + o.getString("name") + ":role=" + o.getString("role") + "#example.org");
                });
        String orcid = null;
        for (Link link : LINKS) {
            if (link.personId() == person) {
                if (link.identity().getString("orcid") != null) {
                    orcid = link.identity().getString("orcid");
                }
            }
        }
        return new JsonObject().put("entitlements", entitlements).put("orcid", orcid).put("assurance", new JsonArray())
                .put("voperson_id", person + "@example.org");
    }

    private static void add(long person, JsonObject identity) {
        LINKS.add(new Link(LINK_IDS.getAndIncrement(), person, identity.getString("provider"), identity.getString("subject"),
                identity, Instant.now()));
    }

    /** The link of that provider's subject through that issuer (a link of another issuer is another identity). */
    private static Link find(String provider, String subject, String issuer) {
        return LINKS.stream().filter(l -> l.provider().equals(provider) && l.subject().equals(subject)
                && java.util.Objects.equals(l.identity().getString("issuer"), issuer)).findFirst().orElse(null);
    }

    /** The identity when its fields are as the directory requires; else the 422 is answered and null returned. */
    private static JsonObject checked(HttpServerRequest request, JsonObject identity) {
        if (identity == null || identity.getString("provider") == null || !identity.getString("provider").matches("[a-z0-9][a-z0-9-]{0,39}")) {
            invalid(request, "provider");
            return null;
        }
        if (identity.getString("subject") == null || identity.getString("subject").isBlank()
                || identity.getString("subject").length() > 255) {
            invalid(request, "subject");
            return null;
        }
        String orcid = identity.getString("orcid");
        if (orcid != null && !orcid.matches("\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX]")) {
            invalid(request, "orcid");
            return null;
        }
        return identity;
    }

    private static void invalid(HttpServerRequest request, String field) {
        json(request, 422, new JsonObject().put("status", 422)
                .put("errors", new JsonArray().add(new JsonObject().put("field", field).put("message", "is not valid"))));
    }

    private static void json(HttpServerRequest request, int status, Object body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end(body instanceof JsonArray array ? array.encode() : ((JsonObject) body).encode());
    }
}
