package org.ziggurat.auth.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.problem.ProblemException;

/**
 * The internal API of a person's data (directory-service, for an account's export and deletion):
 * never routed by the gateway; service tokens only, checked in {@link PersonData}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class PersonDataResource {

    private final PersonData data;

    PersonDataResource(PersonData data) {
        this.data = data;
    }

    @GET
    @Path("/people/{id}/export")
    public Uni<JsonObject> export(@PathParam("id") String id) {
        return data.export(PathIds.parse(id, "person"));
    }

    /** 204 once the person is erased here (again: nothing more to do). */
    @POST
    @Path("/erasures")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> erase(PersonErasure erasure) {
        if (erasure == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        PersonErasure valid = erasure.requireValid();
        return data.erase(valid).map(done -> Response.noContent().build());
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
