package org.ziggurat.platform.rest.people;

import io.quarkus.arc.properties.IfBuildProperty;
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
 * never routed by the gateway; service tokens only, checked in {@link PersonData}. A service that
 * holds a part of a person's data serves it by setting {@value #ENABLED} to {@code true} (a build
 * setting) and providing its {@link HeldPersonData}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProperty(name = PersonDataResource.ENABLED, stringValue = "true")
public class PersonDataResource {

    /** The build setting that serves this API in a service. */
    public static final String ENABLED = "ziggurat.person-data.internal-api";

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
}
