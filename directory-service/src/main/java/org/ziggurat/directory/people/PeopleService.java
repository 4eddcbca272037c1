package org.ziggurat.directory.people;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.vertx.mutiny.core.Vertx;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import java.util.List;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/** The rules of people: sign-up, profile changes, avatars. */
@ApplicationScoped
public class PeopleService {

    private static final Logger LOG = Logger.getLogger(PeopleService.class);

    private final PeopleRepository people;
    private final Hashing hashing;
    private final DirectoryConfig config;
    private final Vertx vertx;
    private final AccountMails accountMails;

    PeopleService(PeopleRepository people, Hashing hashing, DirectoryConfig config, Vertx vertx, AccountMails accountMails) {
        this.accountMails = accountMails;
        this.people = people;
        this.hashing = hashing;
        this.config = config;
        this.vertx = vertx;
    }

    @Schema(name = "SignUp", description = "A new account.")
    @RegisterForReflection
    public record SignUp(
            @Schema(required = true, maxLength = 39, description = "Lower-case letters, digits and inner hyphens; "
                    + "it is also the person's namespace.") String username,
            @Schema(required = true, minLength = ProfileRules.PASSWORD_MIN, maxLength = ProfileRules.PASSWORD_MAX,
                    format = "password") String password,
            @Schema(required = true, format = "email", maxLength = ProfileRules.EMAIL_MAX,
                    description = "The sign-in address, private.") String email,
            @Schema(maxLength = ProfileRules.DISPLAY_NAME_MAX, description = "The name shown; the username when left out.")
            String displayName) {
    }

    public Uni<PersonRow> signUp(SignUp request) {
        if (!config.signupOpen()) {
            return Uni.createFrom().failure(ProblemException.forbidden("Sign-up is closed on this platform."));
        }
        if (request == null) {
            return Uni.createFrom().failure(ProblemException.badRequest("A JSON body is required."));
        }
        FieldChecks errors = new FieldChecks();
        ProfileRules.username(request.username(), errors);
        ProfileRules.password(request.password(), errors);
        ProfileRules.email("email", request.email(), errors);
        ProfileRules.displayName(request.displayName(), errors);
        if (errors.failed()) {
            return Uni.createFrom().failure(ProblemException.invalid("The sign-up is not valid.", errors.errors()));
        }
        String displayName = request.displayName() == null ? request.username() : request.displayName().strip();
        String email = request.email().strip();
        String token = EmailTokens.newToken();
        var mail = accountMails.verification(request.username(), email, token);
        DirectoryConfig.AddressMails limits = config.addressMails();
        return hashing.hash(request.password())
                .chain(hash -> {
                    var person = new PeopleRepository.NewPerson(request.username(), displayName, email, hash);
                    return people.insert(person, new PeopleRepository.EmailProof(EmailTokens.hash(token), mail.subject(), mail.body()))
                            .invoke(p -> LOG.infof("person signed up: id=%d username=%s", p.id(), p.username()))
                            // An address with an account is answered as a new one (the name was free: a taken
                            // name is a 409 before); its owner is told by mail instead.
                            .onFailure(PeopleRepository.AddressTaken.class).recoverWithUni(() -> people.standIn(person,
                                    owner -> {
                                        var notice = accountMails.signUpAttempt(owner.username(), owner.email());
                                        LOG.infof("sign-up with the address of person_id=%d: answered as new, its owner mailed",
                                                owner.id());
                                        return new PeopleRepository.Notice(AccountMails.SIGN_UP_ATTEMPT, notice.subject(),
                                                notice.body());
                                    }, limits.perAddress(), limits.window()));
                });
    }

    /**
     * Proves an address with the token mailed to it (for the page that link opens, through
     * auth-service): the person and the address; 410 when the token is unknown, used, expired,
     * or for an address the person no longer has.
     */
    public Uni<PeopleRepository.Verified> verifyEmail(String token) {
        if (!EmailTokens.wellFormed(token)) {
            return Uni.createFrom().failure(linkGone());
        }
        return people.verifyEmail(EmailTokens.hash(token))
                .onItem().ifNull().failWith(PeopleService::linkGone)
                .invoke(v -> LOG.infof("email verified: person_id=%d", v.personId()));
    }

    private static ProblemException linkGone() {
        return new ProblemException(410, "Link Gone", "This link was used already, has expired, or is not one of ours. "
                + "Sign in and ask for a new one on your account page.");
    }

    /** How many people there are, for the list's total. */
    public Uni<Long> count() {
        return people.count();
    }

    /** A page of people, in sign-up order. */
    public Uni<List<PersonRow>> page(long offset, int limit) {
        return people.page(offset, limit);
    }

    /** The person called so; 404 when nobody is. */
    public Uni<PersonRow> named(String username) {
        return people.byUsername(username)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No person is called '" + username + "'."));
    }

    /** The calling person's own row; 410 when their account is gone meanwhile. */
    public Uni<PersonRow> self(Caller caller) {
        return people.byId(caller.requireUser()).onItem().ifNull().failWith(PeopleService::gone);
    }

    /** PATCH /user, by the person with the user scope (below). */
    public Uni<PersonRow> updateProfile(Caller caller, EdgeInput<ProfileChange> change) {
        long id = caller.requireUserWithScope(ScopeNames.USER);
        return updateProfile(id, change.get());
    }

    /** PUT /user/avatar, by the person with the user scope (below). */
    public Uni<PersonRow> setAvatar(Caller caller, byte[] bytes) {
        return setAvatar(caller.requireUserWithScope(ScopeNames.USER), bytes);
    }

    /** The person's avatar: the uploaded one, or the generated default; 404 when neither is there. */
    public Uni<PeopleRepository.Avatar> avatar(String username) {
        return named(username)
                .chain(row -> row.hasAvatar()
                        ? people.avatar(row.username())
                        : Uni.createFrom().item(new PeopleRepository.Avatar(DefaultAvatars.png(row.username()), "image/png")))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No avatar."));
    }

    /** 422 when the public address asked for is not the person's verified sign-in address. */
    public Uni<PersonRow> updateProfile(long id, ProfileChange change) {
        Uni<Void> allowed = !change.setEmail() || change.email() == null ? Uni.createFrom().voidItem()
                : people.byId(id).onItem().ifNull().failWith(PeopleService::gone).invoke(row -> {
                    if (!row.emailVerified() || !row.email().equalsIgnoreCase(change.email())) {
                        throw ProblemException.invalidField("email", "the public address must be your sign-in address, "
                                + "confirmed with the link mailed to it");
                    }
                }).replaceWithVoid();
        return allowed.chain(() -> people.updateProfile(id, change))
                .onItem().ifNull().failWith(PeopleService::gone);
    }

    /** 413 past the size, 422 for anything but a PNG or JPEG of bounded sides. */
    public Uni<PersonRow> setAvatar(long id, byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return Uni.createFrom().failure(ProblemException.badRequest("The request body must be a PNG or JPEG image."));
        }
        if (bytes.length > config.avatarMaxBytes()) {
            return Uni.createFrom().failure(ProblemException.tooLarge(
                    "An avatar may be at most " + config.avatarMaxBytes() + " bytes."));
        }
        // Decoding an image is CPU work: off the event loop.
        return vertx.executeBlocking(Uni.createFrom().item(() -> ImageChecks.mediaType(bytes)), false)
                .chain(type -> type == null
                        ? Uni.createFrom().failure(ProblemException.invalidField("avatar",
                                "must be a PNG or JPEG image of at most " + ImageChecks.MAX_SIDE + " pixels a side"))
                        : people.setAvatar(id, bytes, type))
                .onItem().ifNull().failWith(PeopleService::gone);
    }

    /** The token names a person who no longer exists. */
    public static ProblemException gone() {
        return ProblemException.unauthorized("The authenticated person does not exist.");
    }
}
