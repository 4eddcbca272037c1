package org.ziggurat.directory.people;

import org.ziggurat.platform.http.PublicAddresses;
import org.ziggurat.platform.input.FieldChecks;

import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Pattern;

/** Field rules of a person's profile, each adding what is wrong to the request's {@link FieldChecks}. */
public final class ProfileRules {

    public static final int PASSWORD_MIN = 10;
    public static final int PASSWORD_MAX = 128;
    public static final int DISPLAY_NAME_MAX = 255;
    public static final int EMAIL_MAX = 254;
    /** RFC 5646 §4.4.1: 35 characters hold every tag of a language, script and region. */
    public static final int LOCALE_MAX = 35;

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private ProfileRules() {
    }

    public static void username(String value, FieldChecks errors) {
        String problem = Names.problem(value);
        if (problem != null) {
            errors.add("username", problem);
        }
    }

    public static void password(String value, FieldChecks errors) {
        if (value == null || value.isEmpty()) {
            errors.add("password", FieldChecks.REQUIRED);
            return;
        }
        int length = value.codePointCount(0, value.length());
        if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
            errors.add("password", "must be between " + PASSWORD_MIN + " and " + PASSWORD_MAX + " characters");
        }
    }

    public static void email(String field, String value, FieldChecks errors) {
        if (value == null || value.isBlank()) {
            errors.add(field, FieldChecks.REQUIRED);
        } else if (value.length() > EMAIL_MAX || !EMAIL.matcher(value).matches()) {
            errors.add(field, "must be an email address");
        }
    }

    public static void displayName(String value, FieldChecks errors) {
        name("display_name", value, errors);
    }

    /** A name shown as it is given (display, given and family name): one line of printable characters. */
    public static void name(String field, String value, FieldChecks errors) {
        if (value == null) {
            return;
        }
        if (value.isBlank() || value.length() > DISPLAY_NAME_MAX || CONTROL.matcher(value).find()) {
            errors.add(field, "must be 1 to " + DISPLAY_NAME_MAX + " printable characters");
        }
    }

    /**
     * A link other people follow from the profile: the platform's URL form (absolute http or https,
     * a host, no credentials, no fragment, bounded), so no javascript: or data: link reaches a page.
     */
    public static void website(String value, FieldChecks errors) {
        if (PublicAddresses.formFault(value) != null) {
            errors.add("website", "must be an absolute http or https URL with a host, without credentials or fragment, "
                    + "of at most " + PublicAddresses.MAX_URL_LENGTH + " characters");
        }
    }

    /**
     * A well-formed BCP 47 language tag ("en-GB", "fr"): one that java.util.Locale reads back as it
     * was written, case aside (it drops what is ill-formed, so a tag that loses anything is refused).
     * Null when it is not one; otherwise the tag in its canonical case.
     */
    public static String locale(String value, FieldChecks errors) {
        String tag = value.length() > LOCALE_MAX ? null : Locale.forLanguageTag(value).toLanguageTag();
        if (tag == null || !tag.equalsIgnoreCase(value) || tag.equals("und")) {
            errors.add("locale", "must be a BCP 47 language tag such as en-GB or fr");
            return null;
        }
        return tag;
    }

    /** A time zone of the tz database as java.time knows it ("Europe/Paris"); no offsets, which are no zone. */
    public static void zoneinfo(String value, FieldChecks errors) {
        if (!ZoneId.getAvailableZoneIds().contains(value)) {
            errors.add("zoneinfo", "must be a time zone of the tz database such as Europe/Paris");
        }
    }
}
