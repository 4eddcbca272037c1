package org.ziggurat.auth.authorization;

import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.directory.client.DirectoryClient;

/**
 * What the pages add to a person's security log, which the directory keeps: each completed
 * sign-in (the directory mails a notice for a device it has not seen), and each application given
 * or refused access. The entry is written before the page answers: a sign-in the log cannot
 * record fails as when the directory cannot be asked (it is the same directory that checked the
 * password a moment before).
 */
@ApplicationScoped
public class SecurityLogEntries {

    private final DirectoryClient directory;
    private final CurrentVertxRequest current;

    SecurityLogEntries(@RestClient DirectoryClient directory, CurrentVertxRequest current) {
        this.directory = directory;
        this.current = current;
    }

    /** Where the current request comes from: its address and its User-Agent. */
    public record Origin(String address, String userAgent) {
    }

    /** Read at the start of a request, before any asynchronous step. */
    public Origin origin() {
        HttpServerRequest request = current.getCurrent() == null ? null : current.getCurrent().request();
        return request == null ? new Origin(null, null) : new Origin(CallerAddress.of(request), request.getHeader("User-Agent"));
    }

    public Uni<Void> signedIn(long personId, Origin origin) {
        return record(personId, "sign_in", origin, null);
    }

    public Uni<Void> applicationAuthorized(long personId, String applicationName, Origin origin) {
        return record(personId, "application_authorized", origin, applicationName);
    }

    public Uni<Void> applicationRevoked(long personId, String applicationName, Origin origin) {
        return record(personId, "application_revoked", origin, applicationName);
    }

    private Uni<Void> record(long personId, String kind, Origin origin, String detail) {
        return directory.recordSecurityLog(personId, new DirectoryClient.SecurityLogEntry(kind, origin.address(),
                        origin.userAgent(), detail))
                // The account was deleted a moment ago: there is no log left to write to.
                .onFailure(DirectoryClient.NotFound.class).recoverWithNull();
    }
}
