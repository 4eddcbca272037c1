package org.ziggurat.platform.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The part of {@link InternalApiContract} for the standard profile claims a person gives on the
 * account page (given_name, family_name, website, locale, zoneinfo): the directory's rules refuse
 * the same values in the double as in the service (422 naming the field), null removes a claim,
 * and the claims answer for userinfo carries what was given. It leaves the person without them.
 */
public final class ProfileClaimsContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Values each field's rule refuses: [field, JSON value]. */
    private static final List<String[]> REFUSED = List.of(new String[] {"given_name", "\" \""},
            new String[] {"family_name", "\"" + "x".repeat(256) + "\""}, new String[] {"given_name", "\"a\\u0007b\""},
            new String[] {"website", "\"javascript:alert(1)\""}, new String[] {"website", "\"https://u:p@x.example/\""},
            new String[] {"website", "\"/relative\""}, new String[] {"locale", "\"en_GB\""},
            new String[] {"locale", "\"not a tag\""}, new String[] {"zoneinfo", "\"Europe/Atlantis\""},
            new String[] {"zoneinfo", "\"+01:00\""}, new String[] {"zoneinfo", "7"});

    private ProfileClaimsContract() {
    }

    /** {@code PATCH /internal/people/:id/profile} and {@code GET /internal/people/:id/claims}. */
    public static void assertProfileClaimsLikeTheDirectory(URI base, long person) throws Exception {
        String profile = "/internal/people/" + person + "/profile";
        for (String[] bad : REFUSED) {
            HttpResponse<String> refused = InternalApiContract.send(base, "PATCH", profile,
                    "{\"" + bad[0] + "\": " + bad[1] + "}");
            InternalApiContract.assertStatus(422, refused, bad[0] + " = " + bad[1]);
            assertEquals(bad[0], JSON.readTree(refused.body()).path("errors").path(0).path("field").asText(), refused.body());
        }
        Map<String, String> given = Map.of("given_name", "Ada", "family_name", "King", "website", "https://ada.example/",
                "locale", "en-GB", "zoneinfo", "Europe/London");
        HttpResponse<String> changed = InternalApiContract.send(base, "PATCH", profile, JSON.writeValueAsString(
                Map.of("given_name", " Ada ", "family_name", "King", "website", "https://ada.example/", "locale", "en-gb",
                        "zoneinfo", "Europe/London")));
        InternalApiContract.assertStatus(200, changed, "the five claims");
        JsonNode claims = claims(base, person);
        given.forEach((field, value) -> assertEquals(value, claims.path(field).asText(), field + " (stripped, a locale in "
                + "its canonical case): " + claims));

        String none = "{\"given_name\": null, \"family_name\": null, \"website\": null, \"locale\": null, \"zoneinfo\": null}";
        InternalApiContract.assertStatus(200, InternalApiContract.send(base, "PATCH", profile, none), "null removes each");
        JsonNode removed = claims(base, person);
        given.keySet().forEach(field -> assertFalse(removed.hasNonNull(field), field + " removed: " + removed));
    }

    private static JsonNode claims(URI base, long person) throws Exception {
        HttpResponse<String> claims = InternalApiContract.send(base, "GET", "/internal/people/" + person + "/claims", null);
        InternalApiContract.assertStatus(200, claims, "the claims");
        return JSON.readTree(claims.body());
    }
}
