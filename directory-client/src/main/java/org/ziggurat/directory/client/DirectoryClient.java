package org.ziggurat.directory.client;

import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * directory-service's internal API ({@code /internal/**}), the one client of it. Every call carries
 * the calling service's own platform token ({@link ServiceTokenHeaders}). Where it is:
 * {@code quarkus.rest-client.directory.url} (timeouts in this module's
 * {@code META-INF/microprofile-config.properties}). Its calls, with their records, are stated by
 * the parts of the API it extends: {@link PeopleAndOrganizationsApi}, {@link CredentialsApi},
 * {@link LinkedIdentitiesApi}, {@link AccountApi}; the answers it maps to exceptions, by
 * {@link DirectoryFailures}: 401 {@link PasswordRefused}, 429 {@link PasswordThrottled}, 404
 * {@link NotFound}, 5xx {@code DependencyUnavailable} (a 503 to the caller, who may retry).
 */
@RegisterRestClient(configKey = "directory")
@RegisterClientHeaders(ServiceTokenHeaders.class)
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public interface DirectoryClient extends PeopleAndOrganizationsApi, CredentialsApi, LinkedIdentitiesApi, AccountApi {

    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        return DirectoryFailures.of(response);
    }
}
