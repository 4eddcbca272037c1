package org.ziggurat.auth.tokens;

import java.util.Map;

/**
 * A JWT access token's entry in the Token Status List (draft-ietf-oauth-status-list): list
 * {@code list} of {@link StatusLists#SIZE} entries, position {@code idx} in it. Taken from one
 * database sequence ({@link StatusIndices}), so no two tokens share one.
 */
public record StatusIndex(int list, int idx) {

    /** The entry of the sequence's value {@code n}. */
    static StatusIndex of(long n) {
        return new StatusIndex(Math.toIntExact(n / StatusLists.SIZE), (int) (n % StatusLists.SIZE));
    }

    /** The list's address under {@code issuer}: the Status List Token's {@code sub}. */
    public static String uri(String issuer, int list) {
        return issuer + "/oauth/status-lists/" + list;
    }

    /** The Referenced Token's {@code status} claim (§6.1): {@code {"status_list": {"idx": …, "uri": …}}}. */
    public Map<String, Object> claim(String issuer) {
        return Map.of("status_list", Map.of("idx", idx, "uri", uri(issuer, list)));
    }
}
