package org.ziggurat.directory.internal;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.EmailAddresses;
import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.PersonViews;
import org.ziggurat.directory.people.ProfileChange;
import org.ziggurat.directory.people.ProfileDetails;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.token.Callers;

/**
 * The account page's profile, for auth-service: what the person sees of themselves, the changes
 * they make there (display name, public address, the standard profile claims, sign-in address), and a new link to prove the
 * address. For a calling service only, checked here first.
 */
@ApplicationScoped
public class AccountProfiles {

    /** A person as their own account page shows them, with the standard profile claims they gave (null: not given). */
    @RegisterForReflection
    public record AccountProfile(long id, String username, String displayName, String picture, String email,
            boolean emailVerified, String publicEmail, String givenName, String familyName, String website, String locale,
            String zoneinfo) {
    }

    private final Callers callers;
    private final PersonLookups people;
    private final PeopleService peopleService;
    private final EmailAddresses addresses;

    AccountProfiles(Callers callers, PersonLookups people, PeopleService peopleService, EmailAddresses addresses) {
        this.callers = callers;
        this.people = people;
        this.peopleService = peopleService;
        this.addresses = addresses;
    }

    /** 404 for an unknown person. */
    public Uni<AccountProfile> profile(long personId, PublicUrls urls) {
        return people.person(personId).map(row -> view(row, urls));
    }

    /** The fields the change names (ProfileChange's rules); 404 for an unknown person. */
    public Uni<AccountProfile> change(long personId, ProfileChange change, PublicUrls urls) {
        return people.person(personId).chain(row -> peopleService.updateProfile(personId, change)).map(row -> view(row, urls));
    }

    /** A new avatar (PNG or JPEG, PeopleService's rules); 404 for an unknown person. */
    public Uni<AccountProfile> setAvatar(long personId, byte[] image, PublicUrls urls) {
        return people.person(personId).chain(row -> peopleService.setAvatar(personId, image)).map(row -> view(row, urls));
    }

    public Uni<EmailAddresses.Changed> changeEmail(long personId, String email, String clientAddress) {
        return callers.service().chain(service -> addresses.change(personId, email, PasswordChecks.address(clientAddress)));
    }

    public Uni<Void> resendVerification(long personId) {
        return callers.service().chain(service -> addresses.resendVerification(personId));
    }

    private static AccountProfile view(PersonRow row, PublicUrls urls) {
        ProfileDetails d = row.details();
        return new AccountProfile(row.id(), row.username(), row.displayName(), PersonViews.avatarUrl(row, urls), row.email(),
                row.emailVerified(), row.publicEmail(), d.givenName(), d.familyName(), d.website(), d.locale(), d.zoneinfo());
    }
}
