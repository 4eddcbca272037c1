package org.ziggurat.directory.people;

import org.ziggurat.platform.input.FieldChecks;

import java.util.regex.Pattern;

/** Field rules of a person's profile, each adding what is wrong to the request's {@link FieldChecks}. */
public final class ProfileRules {

    public static final int PASSWORD_MIN = 10;
    public static final int PASSWORD_MAX = 128;
    public static final int DISPLAY_NAME_MAX = 255;
    public static final int EMAIL_MAX = 254;

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
        if (value == null) {
            return;
        }
        if (value.isBlank() || value.length() > DISPLAY_NAME_MAX || CONTROL.matcher(value).find()) {
            errors.add("display_name", "must be 1 to " + DISPLAY_NAME_MAX + " printable characters");
        }
    }
}
