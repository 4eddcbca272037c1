package org.ziggurat.auth.directory;

import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** directory-service's internal API, called with auth-service's own platform token. */
@RegisterRestClient(configKey = "directory")
@RegisterClientHeaders(ServiceTokenHeaders.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface DirectoryClient {

    record PasswordCheck(String login, String password, String clientAddress) {
    }

    record VerifiedPerson(long userId, String username) {
    }

    /** The directory refused the password (401). */
    class PasswordRefused extends RuntimeException {
        public PasswordRefused() {
            super("refused", null, false, false);
        }
    }

    /** The directory throttles this account or address (429). */
    class PasswordThrottled extends RuntimeException {
        private final long retryAfter;

        public PasswordThrottled(long retryAfter) {
            super("throttled", null, false, false);
            this.retryAfter = retryAfter;
        }

        public long retryAfter() {
            return retryAfter;
        }
    }

    @POST
    @Path("/passwords/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<VerifiedPerson> verifyPassword(PasswordCheck check);

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        if (response.getStatus() == 401) {
            return new PasswordRefused();
        }
        if (response.getStatus() == 429) {
            String retry = response.getHeaderString("Retry-After");
            long seconds = 60;
            try {
                seconds = retry == null ? 60 : Long.parseLong(retry.trim());
            } catch (NumberFormatException e) {
                // keep the default
            }
            return new PasswordThrottled(seconds);
        }
        return new IllegalStateException("directory-service answered " + response.getStatus());
    }
}
