package org.ziggurat.auth.people;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.problem.ProblemException;

/**
 * The internal API of a person's sign-out everywhere (directory-service, after a password changed
 * through the API), beside platform-rest's export and erasure: never routed by the gateway;
 * service tokens only, checked in {@link AuthPersonData}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class SignOutResource {

    private final AuthPersonData data;

    SignOutResource(AuthPersonData data) {
        this.data = data;
    }

    /** After a password changed through the API (directory-service): 204 once every sign-in here ended. */
    @POST
    @Path("/sign-outs")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> signOut(PersonErasure who) {
        if (who == null || who.personId() <= 0) {
            throw ProblemException.invalidField("person_id", "is required");
        }
        return data.signOut(who.personId()).map(done -> Response.noContent().build());
    }
}
