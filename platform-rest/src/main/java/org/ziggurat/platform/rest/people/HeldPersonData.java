package org.ziggurat.platform.rest.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import org.ziggurat.platform.people.PersonErasure;

/**
 * What one service holds about a person: its part of their export, and their erasure here. Each
 * service that holds any provides one bean of it; {@link PersonData} checks the caller before it.
 */
public interface HeldPersonData {

    /** The person's part of their export, from this service. */
    Uni<JsonObject> export(long personId);

    /** Erases the person here; erasing twice does nothing more. */
    Uni<Void> erase(PersonErasure erasure);
}
