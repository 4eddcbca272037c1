package org.ziggurat.auth;

import io.vertx.core.json.JsonObject;
import org.ziggurat.platform.http.PublicAddresses;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The directory double's rules of the standard profile claims a person gives (directory-service's
 * ProfileRules, held to them by ProfileClaimsContract): names of 1 to 255 printable characters, an
 * absolute http(s) website, a BCP 47 locale (kept in its canonical case), a tz database zone.
 */
final class ProfileClaimsDouble {

    static final List<String> FIELDS = List.of("given_name", "family_name", "website", "locale", "zoneinfo");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private ProfileClaimsDouble() {
    }

    /** Applies the fields the body names to {@code details} (null removes one): the fields refused, as the real one names them. */
    static List<String> change(JsonObject body, Map<String, String> details) {
        List<String> refused = new java.util.ArrayList<>();
        for (String field : FIELDS) {
            if (!body.containsKey(field)) {
                continue;
            }
            Object value = body.getValue(field);
            if (value == null) {
                details.remove(field);
                continue;
            }
            String kept = value instanceof String text ? kept(field, text.strip()) : null;
            if (kept == null) {
                refused.add(field);
            } else {
                details.put(field, kept);
            }
        }
        return refused;
    }

    /** The value as the directory keeps it, or null when its rule refuses it. */
    private static String kept(String field, String value) {
        return switch (field) {
            case "website" -> PublicAddresses.formFault(value) == null ? value : null;
            case "locale" -> {
                String tag = value.length() > 35 ? "" : Locale.forLanguageTag(value).toLanguageTag();
                yield tag.equalsIgnoreCase(value) && !tag.equals("und") ? tag : null;
            }
            case "zoneinfo" -> ZoneId.getAvailableZoneIds().contains(value) ? value : null;
            default -> value.isBlank() || value.length() > 255 || CONTROL.matcher(value).find() ? null : value;
        };
    }
}
