package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.List;

/**
 * The account page's other ways to sign in: the identities of other providers linked to the
 * signed-in person, their removal (never the last way to sign in: the directory refuses it), and
 * whether the person's own second factor is asked for after a provider's sign-in.
 */
@ApplicationScoped
public class LinkedSignIns {

    /** The linked identities and the setting, as the page shows them. */
    public record Linked(List<DirectoryClient.LinkedIdentity> identities, boolean secondFactorAfterUpstream) {
    }

    /** The identity is the person's last way to sign in. */
    public static final class LastWayToSignIn extends RuntimeException {
        LastWayToSignIn() {
            super("last way to sign in", null, false, false);
        }
    }

    private final DirectoryClient directory;

    LinkedSignIns(@RestClient DirectoryClient directory) {
        this.directory = directory;
    }

    public Uni<Linked> of(LoginSessions.Session session) {
        return Uni.combine().all().unis(directory.identities(session.personId()), directory.upstreamSettings(session.personId()))
                .asTuple().map(both -> new Linked(both.getItem1(),
                        !Boolean.FALSE.equals(both.getItem2().secondFactorAfterUpstream())));
    }

    /** {@link DirectoryClient.NotFound} for no such link of the person; {@link LastWayToSignIn}. */
    public Uni<Void> unlink(LoginSessions.Session session, long linkId, String clientAddress) {
        return directory.unlinkIdentity(session.personId(), linkId, clientAddress).replaceWithVoid()
                .onFailure(DirectoryClient.Conflict.class).transform(e -> new LastWayToSignIn());
    }

    public Uni<Void> secondFactorAfterUpstream(LoginSessions.Session session, boolean required, String clientAddress) {
        return directory.setUpstreamSettings(session.personId(), new DirectoryClient.UpstreamSettings(required), clientAddress)
                .replaceWithVoid();
    }
}
