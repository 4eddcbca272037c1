package org.ziggurat.directory.client;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A namespace (a person or an organization) and what one person may do in it, as the directory says. */
@RegisterForReflection
public record Namespace(String name, String kind, long id, String visibility, boolean read, boolean write, boolean admin) {

    static final Namespace UNKNOWN = new Namespace("", "unknown", 0, "private", false, false, false);
}
