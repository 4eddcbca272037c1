package org.ziggurat.auth.tokens;

import java.util.List;

/**
 * What every token request may carry besides its grant: the resources it names (RFC 8707, checked;
 * empty for none) and the thumbprint of the key of its DPoP proof (RFC 9449, checked; null for none).
 */
public record TokenRequest(List<String> resources, String jkt) {

    public static final TokenRequest PLAIN = new TokenRequest(List.of(), null);
}
