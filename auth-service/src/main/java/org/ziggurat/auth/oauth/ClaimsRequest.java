package org.ziggurat.auth.oauth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code claims} request parameter (OpenID Connect Core §5.5): individual claims asked for the
 * ID token and for userinfo, each plain ({@code null}), essential, or with the value(s) wanted.
 * What is granted stays what the scopes and the person's consent allow: a claim named here goes
 * into the ID token when the granted scopes cover it (userinfo answers every claim they cover
 * anyway), and one they do not cover is left out, which §5.5.1 allows even for an essential one.
 * Two claims are requirements rather than requests: {@code sub} with a value (only that person,
 * §3.1.2.2) and {@code acr} with values (a sign-in of that class, §5.5.1.1, as acr_values).
 */
public record ClaimsRequest(Map<String, Requested> idToken, Map<String, Requested> userinfo) {

    /** One requested claim: whether it is essential, and the value or values asked for (null when none). */
    public record Requested(boolean essential, String value, List<String> values) {
    }

    /** The longest claims parameter taken: it travels in the pages' hidden fields and the code. */
    public static final int MAX_LENGTH = 4096;

    public static final ClaimsRequest NONE = new ClaimsRequest(Map.of(), Map.of());

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The parameter read; {@link #NONE} for null. Throws {@link IllegalArgumentException} saying what is wrong. */
    public static ClaimsRequest parse(String parameter) {
        if (parameter == null || parameter.isBlank()) {
            return NONE;
        }
        if (parameter.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("claims is too long (at most " + MAX_LENGTH + " characters).");
        }
        JsonNode root;
        try {
            root = JSON.readTree(parameter);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("claims must be a JSON object (OpenID Connect Core §5.5).");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("claims must be a JSON object (OpenID Connect Core §5.5).");
        }
        ClaimsRequest request = new ClaimsRequest(member(root, "id_token"), member(root, "userinfo"));
        String acr = request.acrValues();
        if (acr != null && acr.length() > 255) {
            // As long as acr_values may be: they stand for it.
            throw new IllegalArgumentException("claims.id_token.acr asks for too many values.");
        }
        return request;
    }

    private static Map<String, Requested> member(JsonNode root, String name) {
        JsonNode member = root.get(name);
        if (member == null || member.isNull()) {
            return Map.of();
        }
        if (!member.isObject()) {
            throw new IllegalArgumentException("claims." + name + " must be a JSON object.");
        }
        Map<String, Requested> claims = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = member.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> claim = it.next();
            claims.put(claim.getKey(), requested(name + "." + claim.getKey(), claim.getValue()));
        }
        return claims;
    }

    private static Requested requested(String where, JsonNode node) {
        if (node == null || node.isNull()) {
            return new Requested(false, null, null);
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("claims." + where + " must be null or a JSON object.");
        }
        JsonNode essential = node.get("essential");
        if (essential != null && !essential.isNull() && !essential.isBoolean()) {
            throw new IllegalArgumentException("claims." + where + ".essential must be true or false.");
        }
        JsonNode value = node.get("value");
        JsonNode values = node.get("values");
        if (values != null && !values.isNull() && !values.isArray()) {
            throw new IllegalArgumentException("claims." + where + ".values must be an array.");
        }
        List<String> list = null;
        if (values != null && values.isArray()) {
            list = new ArrayList<>();
            for (JsonNode each : values) {
                list.add(each.isTextual() ? each.asText() : each.toString());
            }
        }
        String one = value == null || value.isNull() ? null : value.isTextual() ? value.asText() : value.toString();
        return new Requested(essential != null && essential.asBoolean(), one, list);
    }

    /** The person the client asks for ({@code id_token.sub.value}); null when any. */
    public String subject() {
        Requested sub = idToken.get("sub");
        return sub == null ? null : sub.value();
    }

    /**
     * The classes of sign-in asked for as {@code id_token.acr}, space-delimited as acr_values
     * would be; null when none.
     */
    public String acrValues() {
        Requested acr = idToken.get("acr");
        if (acr == null) {
            return null;
        }
        if (acr.values() != null && !acr.values().isEmpty()) {
            return String.join(" ", acr.values());
        }
        return acr.value();
    }

    /**
     * The claims of the person asked for the ID token, by name: those the provider sets on every
     * ID token itself (iss, sub, auth_time, acr, ...) are not the person's.
     */
    public List<String> idTokenPersonClaims() {
        return idToken.keySet().stream().filter(name -> !TOKEN_OWN.contains(name)).toList();
    }

    /** Claims every ID token sets itself (from the token, not the person), never taken from the directory. */
    private static final java.util.Set<String> TOKEN_OWN = java.util.Set.of("iss", "sub", "aud", "exp", "iat", "auth_time",
            "nonce", "azp", "amr", "acr", "at_hash");
}
