package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.tokens.SignOutRepository;
import org.ziggurat.directory.client.DirectoryClient;

import java.time.Duration;

/**
 * "Forgot your password?" for the pages: the directory mails the link and sets the password;
 * this side then signs the person out everywhere (every token, session and pending sign-in), so
 * that whoever was in with the old password is not any more. A second factor, if the person has
 * one, is still asked at their next sign-in: nothing here touches it.
 */
@ApplicationScoped
public class PasswordRecovery {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final SignOutRepository signOuts;

    PasswordRecovery(@RestClient DirectoryClient directory, SignOutRepository signOuts) {
        this.directory = directory;
        this.signOuts = signOuts;
    }

    /** Asks for a link; {@link DirectoryClient.PasswordThrottled} when the address asked too often. */
    public Uni<Void> ask(String login, String clientAddress) {
        return directory.askPasswordRecovery(new DirectoryClient.RecoveryAsk(login, clientAddress)).replaceWithVoid();
    }

    /**
     * Sets the new password with the link's token, then ends every sign-in of the person; the
     * directory's {@code Invalid} (the password) and {@code LinkGone} (the link) pass through. The
     * sign-out is tried again a few times: the password is changed by then, and the old sign-ins
     * must not outlive it because auth's database blinked.
     */
    public Uni<DirectoryClient.RecoveredPerson> reset(String token, String password, String clientAddress) {
        return directory.resetPassword(new DirectoryClient.PasswordReset(token, password, clientAddress))
                .call(person -> signOuts.signOutEverywhere(person.id())
                        .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(5)
                        .invoke(revoked -> EVENTS.infof("event=password_reset person_id=%d revoked_tokens=%d", person.id(),
                                revoked)));
    }
}
