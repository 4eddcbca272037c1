package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A namespace (a person or an organization) and what one person may do in it, as the directory
 * says. {@code secondFactorRequired}: the person is a member of an organization that requires a
 * second factor and has none, so has only an outsider's rights there until they set one up.
 */
@RegisterForReflection
public record Namespace(String name, String kind, long id, String visibility, boolean read, boolean write, boolean admin,
        boolean secondFactorRequired) {

    static final Namespace UNKNOWN = new Namespace("", "unknown", 0, "private", false, false, false, false);
}
