package org.ziggurat.directory.people;

import org.ziggurat.platform.problem.Problem;

import java.util.List;
import java.util.regex.Pattern;

/** Field rules of a person's profile, each adding what is wrong to a list of field errors. */
public final class ProfileRules {

    public static final int PASSWORD_MIN = 10;
    public static final int PASSWORD_MAX = 128;
    public static final int DISPLAY_NAME_MAX = 255;
    public static final int EMAIL_MAX = 254;

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s.]+(\\.[^@\\s.]+)+");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private ProfileRules() {
    }

    public static void username(String value, List<Problem.FieldError> errors) {
        String problem = Names.problem(value);
        if (problem != null) {
            errors.add(new Problem.FieldError("username", problem));
        }
    }

    public static void password(String value, List<Problem.FieldError> errors) {
        if (value == null || value.isEmpty()) {
            errors.add(new Problem.FieldError("password", "is required"));
            return;
        }
        int length = value.codePointCount(0, value.length());
        if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
            errors.add(new Problem.FieldError("password",
                    "must be between " + PASSWORD_MIN + " and " + PASSWORD_MAX + " characters"));
        }
    }

    public static void email(String field, String value, List<Problem.FieldError> errors) {
        if (value == null || value.isBlank()) {
            errors.add(new Problem.FieldError(field, "is required"));
        } else if (value.length() > EMAIL_MAX || !EMAIL.matcher(value).matches()) {
            errors.add(new Problem.FieldError(field, "must be an email address"));
        }
    }

    public static void displayName(String value, List<Problem.FieldError> errors) {
        if (value == null) {
            return;
        }
        if (value.isBlank() || value.length() > DISPLAY_NAME_MAX || CONTROL.matcher(value).find()) {
            errors.add(new Problem.FieldError("display_name",
                    "must be 1 to " + DISPLAY_NAME_MAX + " printable characters"));
        }
    }
}
