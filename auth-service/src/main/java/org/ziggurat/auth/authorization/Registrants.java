package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.directory.client.DirectoryClient;

/**
 * Who registered an application that no operator verified, as the sign-in, consent and device
 * pages say it (RFC 7591 §5, RFC 8628 §5.4): the person's username, so that nobody takes a
 * stranger's tool for the platform's own.
 */
@ApplicationScoped
public class Registrants {

    private static final Logger LOG = Logger.getLogger(Registrants.class);

    private final DirectoryClient directory;

    Registrants(@RestClient DirectoryClient directory) {
        this.directory = directory;
    }

    /** "@username"; "a person of this platform" when the directory cannot say now (the mark stays). */
    public Uni<String> of(ApplicationRow app) {
        if (app.ownerId() == null) {
            return Uni.createFrom().item("the platform");
        }
        return directory.people(Long.toString(app.ownerId()))
                .map(people -> people.isEmpty() ? "a person of this platform" : "@" + people.get(0).username())
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("Who registered application %d is not known now: %s", app.id(), failure.toString());
                    return "a person of this platform";
                });
    }
}
