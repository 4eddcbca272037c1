package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.ziggurat.directory.accountdata.AccountData;
import org.ziggurat.directory.accountdata.AccountDeletionRepository;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;

/**
 * The account page's export and deletion (auth-service, after the password): service tokens
 * only, checked in {@link AccountData}.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class AccountDataResource {

    @RegisterForReflection
    public record Deletion(String confirm) {
    }

    private final AccountData data;

    AccountDataResource(AccountData data) {
        this.data = data;
    }

    /** Everything the platform holds about the person; 503 when a service cannot give its part. */
    @GET
    @Path("/people/{id}/export")
    public Uni<JsonObject> export(@PathParam("id") String id) {
        return data.exportForService(PathIds.parse(id, "person"));
    }

    /** 200 with what went; 422 unless confirm is the username; 409 for organizations only they administer. */
    @POST
    @Path("/people/{id}/deletion")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<AccountDeletionRepository.Deleted> delete(@PathParam("id") String id, Deletion deletion) {
        long personId = PathIds.parse(id, "person");
        if (deletion == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        return data.deleteForService(personId, deletion.confirm());
    }
}
