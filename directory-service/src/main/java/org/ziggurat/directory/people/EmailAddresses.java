package org.ziggurat.directory.people;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.mail.SecurityNotices;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/**
 * Changing a person's sign-in address, and mailing a new link to prove it. The caller checked
 * who asks (auth-service's account page after its own confirmation, or the API with the account
 * scope and the current password: selfservice's OwnCredentials).
 */
@ApplicationScoped
public class EmailAddresses {

    private static final Logger LOG = Logger.getLogger(EmailAddresses.class);

    /** The outcome of a change: {@code changed} false when the address was the person's already. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Changed(long personId, String username, String email, boolean changed) {
    }

    private final EmailAddressRepository repository;
    private final AccountMails mails;
    private final SecurityNotices notices;

    EmailAddresses(EmailAddressRepository repository, AccountMails mails, SecurityNotices notices) {
        this.repository = repository;
        this.mails = mails;
        this.notices = notices;
    }

    /** POST /user/email/verification-mails: the person, with the user scope. */
    public Uni<Void> resendVerification(Caller caller) {
        return resendVerification(caller.requireUserWithScope(ScopeNames.USER));
    }

    /** 422 for an address that is none, 409 when another account has it, 404 for an unknown person. */
    public Uni<Changed> change(long personId, String email, String clientAddress) {
        FieldChecks errors = new FieldChecks();
        ProfileRules.email("email", email, errors);
        errors.throwIfFailed("The address is not valid.");
        String address = email.strip();
        String token = EmailTokens.newToken();
        return repository.change(personId, address, EmailTokens.hash(token), clientAddress, new EmailAddressRepository.ChangeMails() {
                    @Override
                    public SecurityNotices.Notice verification(EmailAddressRepository.Holder holder) {
                        return mails.verification(holder.username(), address, token);
                    }

                    @Override
                    public SecurityNotices.Notice notice(EmailAddressRepository.Holder holder) {
                        return notices.emailChanged(holder.username(), address, clientAddress);
                    }
                })
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."))
                .map(holder -> new Changed(personId, holder.username(), address,
                        !holder.previousEmail().equalsIgnoreCase(address)))
                .invoke(changed -> {
                    if (changed.changed()) {
                        LOG.infof("sign-in address changed: person_id=%d", personId);
                    }
                });
    }

    /** A new link for an address not yet proven; 409 when it is proven (or no such person). */
    public Uni<Void> resendVerification(long personId) {
        String token = EmailTokens.newToken();
        return repository.resend(personId, EmailTokens.hash(token),
                        holder -> mails.verification(holder.username(), holder.previousEmail(), token))
                .onItem().ifNull().failWith(() -> ProblemException.conflict("The address is confirmed already."))
                .replaceWithVoid();
    }
}
