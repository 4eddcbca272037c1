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
import org.ziggurat.platform.input.FieldChecks;

import java.util.regex.Pattern;

/**
 * A notice another service owes a namespace's admins (events-service: one of its webhooks was
 * disabled): a mail to each, through the outbox, to the person of a person's namespace or the
 * active admins of an organization. Only the services that owe such notices may ask.
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class AdminNoticesResource {

    private static final Pattern KIND = Pattern.compile("[a-z][a-z_]{0,39}");

    @RegisterForReflection
    public record AdminNotice(String kind, String subject, String body) {
    }

    private final AdminNotices notices;

    AdminNoticesResource(AdminNotices notices) {
        this.notices = notices;
    }

    /** 202 with how many mails were queued; 404 when no namespace has the name. */
    @POST
    @Path("/namespaces/{name}/admin-notices")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> notice(@PathParam("name") String name, AdminNotice notice) {
        FieldChecks errors = new FieldChecks();
        if (notice == null || notice.kind() == null || !KIND.matcher(notice.kind()).matches()) {
            errors.add("kind", "must be 1 to 40 lower-case letters and underscores");
        }
        if (notice == null || notice.subject() == null || notice.subject().isBlank() || notice.subject().length() > 200) {
            errors.add("subject", "must be 1 to 200 characters");
        }
        if (notice == null || notice.body() == null || notice.body().isBlank() || notice.body().length() > 10_000) {
            errors.add("body", "must be 1 to 10000 characters");
        }
        errors.throwIfFailed("The notice is not valid.");
        return notices.queue(name, notice.kind(), notice.subject(), notice.body())
                .map(queued -> Response.accepted(new io.vertx.core.json.JsonObject().put("queued", queued).encode())
                        .type(MediaType.APPLICATION_JSON).build());
    }
}
