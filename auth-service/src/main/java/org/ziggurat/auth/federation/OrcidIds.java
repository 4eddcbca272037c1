package org.ziggurat.auth.federation;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** ORCID iDs: 16 digits in four groups, the last character a checksum (ISO 7064 11,2), which is checked. */
public final class OrcidIds {

    private static final Pattern ID = Pattern.compile("(?:https?://(?:sandbox\\.)?orcid\\.org/)?(\\d{4}-\\d{4}-\\d{4}-\\d{3}[\\dX])");

    private OrcidIds() {
    }

    /** The iD in {@code value} (bare, or as its https://orcid.org/ URI) when its checksum holds; else null. */
    public static String of(String value) {
        if (value == null) {
            return null;
        }
        Matcher m = ID.matcher(value.strip());
        if (!m.matches()) {
            return null;
        }
        String id = m.group(1);
        String digits = id.replace("-", "");
        int total = 0;
        for (int i = 0; i < 15; i++) {
            total = (total + (digits.charAt(i) - '0')) * 2;
        }
        int check = (12 - total % 11) % 11;
        char expected = check == 10 ? 'X' : (char) ('0' + check);
        return digits.charAt(15) == expected ? id : null;
    }
}
