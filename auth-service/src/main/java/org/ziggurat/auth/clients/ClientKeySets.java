package org.ziggurat.auth.clients;

import io.smallrye.mutiny.Uni;

/**
 * A client's public keys at its registered {@code jwks_uri} (RFC 7591 §2), fetched under the rules
 * of every call the platform makes to an address someone else chose (implemented where those calls
 * are made). The JWK set's JSON; {@code fresh}: not from a cache (a key the cached set lacks may be
 * a rotation).
 */
public interface ClientKeySets {

    Uni<String> fetch(String jwksUri, boolean fresh);
}
