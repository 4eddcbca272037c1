package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.securitylog.SecurityLog;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.problem.ProblemException;

/**
 * What auth-service records in a person's security log: sign-ins on its pages (a device not seen
 * before mails a notice), and applications given or refused access. Service tokens only.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class SecurityLogResource {

    @RegisterForReflection
    public record NewEntry(String kind, String clientAddress, String userAgent, String detail) {
    }

    private final SecurityLog log;

    SecurityLogResource(SecurityLog log) {
        this.log = log;
    }

    /** 204 when recorded; 400 for a kind other services may not record; 404 for an unknown person. */
    @POST
    @Path("/people/{id}/security-log")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> record(@PathParam("id") String id, NewEntry entry) {
        long personId = PathIds.parse(id, "person");
        if (entry == null || entry.kind() == null || !AccountEvents.RECORDED_BY_SERVICES.contains(entry.kind())) {
            throw ProblemException.invalidField("kind", "must be one of " + AccountEvents.RECORDED_BY_SERVICES);
        }
        if (entry.detail() != null && entry.detail().length() > 200) {
            throw ProblemException.invalidField("detail", "must be at most 200 characters");
        }
        return log.recordForService(personId, new SecurityLog.Entry(entry.kind(),
                        PasswordChecks.address(entry.clientAddress()), entry.userAgent(), entry.detail()))
                .map(recorded -> {
                    if (!recorded) {
                        throw ProblemException.notFound("No such person.");
                    }
                    return Response.noContent().build();
                });
    }
}
