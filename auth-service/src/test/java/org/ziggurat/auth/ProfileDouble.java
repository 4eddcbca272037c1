package org.ziggurat.auth;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The directory double's account profiles: the same rules as directory-service's (only the
 * confirmed sign-in address may be public; a new address is unconfirmed and loses the public one;
 * another person's address is 409; a confirmed address gets no new link).
 */
public final class ProfileDouble {

    /** carol's address starts confirmed; everyone else's does not. */
    static final long CONFIRMED_AT_START = 103;
    /** How many new confirmation links were asked for. */
    public static final AtomicInteger RESENT = new AtomicInteger();
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");

    /** {@code details}: the standard profile claims given (given_name … zoneinfo), by name. */
    private record State(String displayName, String email, boolean verified, String publicEmail, Map<String, String> details) {

        State(String displayName, String email, boolean verified, String publicEmail) {
            this(displayName, email, verified, publicEmail, Map.of());
        }
    }

    private static final Map<Long, State> STATES = new ConcurrentHashMap<>();
    /** People whose account was deleted: 404 from then on. */
    public static final java.util.Set<Long> DELETED = ConcurrentHashMap.newKeySet();

    private ProfileDouble() {
    }

    private static State state(DirectoryDouble.Person p) {
        return STATES.computeIfAbsent(p.id(), id -> new State(p.username().toUpperCase(), p.username() + "@example.org",
                id == CONFIRMED_AT_START, null));
    }

    static String email(DirectoryDouble.Person p) {
        return state(p).email();
    }

    static boolean verified(DirectoryDouble.Person p) {
        return state(p).verified();
    }

    /** The standard profile claims the person gave, as the claims answer for userinfo carries them. */
    static Map<String, String> details(DirectoryDouble.Person p) {
        return state(p).details();
    }

    static boolean handles(String path) {
        return path.matches("/internal/people/\\d+/(profile|email|email-verification-mails|export|deletion)");
    }

    /** {@code person}: null when the id is nobody's (404). */
    static void handle(HttpServerRequest request, JsonObject body, DirectoryDouble.Person person) {
        String path = request.path();
        String method = request.method().name();
        if (person == null || DELETED.contains(person.id())) {
            answer(request, 404, new JsonObject().put("status", 404));
            return;
        }
        State state = state(person);
        if (path.endsWith("/profile") && method.equals("GET")) {
            answer(request, 200, view(person, state));
        } else if (path.endsWith("/profile") && method.equals("PATCH") && body != null) {
            String name = body.containsKey("display_name") ? body.getValue("display_name") instanceof String s ? s.strip() : "" : null;
            boolean setEmail = body.containsKey("email");
            String publicEmail = setEmail ? body.getString("email") : state.publicEmail();
            if ((name != null && (name.isEmpty() || name.length() > 255))
                    || (publicEmail != null && (!state.verified() || !publicEmail.equalsIgnoreCase(state.email())))) {
                answer(request, 422, new JsonObject().put("status", 422));
                return;
            }
            Map<String, String> details = new java.util.HashMap<>(state.details());
            java.util.List<String> refused = ProfileClaimsDouble.change(body, details);
            if (!refused.isEmpty()) {
                io.vertx.core.json.JsonArray errors = new io.vertx.core.json.JsonArray();
                refused.forEach(field -> errors.add(new JsonObject().put("field", field).put("message", "refused")));
                answer(request, 422, new JsonObject().put("status", 422).put("errors", errors));
                return;
            }
            State changed = new State(name == null ? state.displayName() : name, state.email(), state.verified(), publicEmail,
                    Map.copyOf(details));
            STATES.put(person.id(), changed);
            answer(request, 200, view(person, changed));
        } else if (path.endsWith("/email") && method.equals("PUT") && body != null) {
            String email = body.getString("email");
            if (email == null || !EMAIL.matcher(email.strip()).matches()) {
                answer(request, 422, new JsonObject().put("status", 422));
            } else if (DirectoryDouble.PEOPLE.values().stream().anyMatch(q -> q.id() != person.id()
                    && state(q).email().equalsIgnoreCase(email.strip()))) {
                answer(request, 409, new JsonObject().put("status", 409));
            } else {
                boolean changed = !state.email().equalsIgnoreCase(email.strip());
                if (changed) {
                    STATES.put(person.id(), new State(state.displayName(), email.strip(), false, null, state.details()));
                }
                answer(request, 200, new JsonObject().put("person_id", person.id()).put("username", person.username())
                        .put("email", email.strip()).put("changed", changed));
            }
        } else if (path.endsWith("/export") && method.equals("GET")) {
            answer(request, 200, new JsonObject().put("format", "ziggurat-account-export/1")
                    .put("directory", new JsonObject().put("profile", view(person, state))));
        } else if (path.endsWith("/deletion") && method.equals("POST") && body != null) {
            // As the real one: the username typed again; bob alone administers vault, which has other members.
            if (!person.username().equalsIgnoreCase(String.valueOf(body.getString("confirm")))) {
                answer(request, 422, new JsonObject().put("status", 422));
            } else if (person.id() == 102) {
                answer(request, 409, new JsonObject().put("status", 409).put("detail", "You alone administer vault, which "
                        + "other people are members of: make one of them an admin, or delete the organization, then delete "
                        + "your account."));
            } else {
                DELETED.add(person.id());
                answer(request, 200, new JsonObject().put("username", person.username())
                        .put("organizations_deleted", new io.vertx.core.json.JsonArray()));
            }
        } else if (path.endsWith("/email-verification-mails") && method.equals("POST")) {
            if (state.verified()) {
                answer(request, 409, new JsonObject().put("status", 409));
            } else {
                RESENT.incrementAndGet();
                request.response().setStatusCode(202).end();
            }
        } else {
            answer(request, 400, new JsonObject().put("status", 400));
        }
    }

    /** The avatars set, by person. */
    public static final Map<Long, byte[]> AVATARS = new ConcurrentHashMap<>();

    /** As the real one: an image it can decode, PNG or JPEG, at most 1 MiB; 422 otherwise, 413 past the size. */
    static void avatar(HttpServerRequest request, byte[] image, DirectoryDouble.Person person) {
        if (person == null || DELETED.contains(person.id())) {
            answer(request, 404, new JsonObject().put("status", 404));
            return;
        }
        if (image.length > 1024 * 1024) {
            answer(request, 413, new JsonObject().put("status", 413));
            return;
        }
        boolean pngOrJpeg = image.length > 3 && ((image[0] & 0xff) == 0x89 && image[1] == 'P' || (image[0] & 0xff) == 0xff
                && (image[1] & 0xff) == 0xd8);
        boolean decodes;
        try {
            decodes = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(image)) != null;
        } catch (java.io.IOException e) {
            decodes = false;
        }
        if (!pngOrJpeg || !decodes) {
            answer(request, 422, new JsonObject().put("status", 422));
            return;
        }
        AVATARS.put(person.id(), image);
        answer(request, 200, view(person, state(person)));
    }

    private static JsonObject view(DirectoryDouble.Person p, State s) {
        JsonObject view = new JsonObject().put("id", p.id()).put("username", p.username()).put("display_name", s.displayName())
                .put("picture", "https://x.example/people/" + p.username() + "/avatar").put("email", s.email())
                .put("email_verified", s.verified()).put("public_email", s.publicEmail());
        ProfileClaimsDouble.FIELDS.forEach(field -> view.put(field, s.details().get(field)));
        return view;
    }

    private static void answer(HttpServerRequest request, int status, JsonObject body) {
        request.response().setStatusCode(status).putHeader("Content-Type", status >= 400 ? "application/problem+json"
                : "application/json").end(body.encode());
    }
}
