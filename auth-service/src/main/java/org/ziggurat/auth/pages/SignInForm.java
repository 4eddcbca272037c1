package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.authorization.SecurityLogEntries;
import org.ziggurat.auth.authorization.PendingSignIns;
import org.ziggurat.auth.authorization.SignIns;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.Map;
import java.util.function.Function;

/**
 * The sign-in forms that the authorization, device, account and federation pages share: the
 * password, then the second factor for a person who has one, or a passkey; the directory's answers,
 * shown as the page that asked shows its forms. {@link PageForms} hands each form over once its
 * double-submit CSRF cookie is checked.
 */
@ApplicationScoped
class SignInForm {

    /** How a page shows its sign-in form again, with a message and the login typed. */
    interface FormAgain {
        Response show(String message, String login, int status);
    }

    /**
     * A page's sign-in: {@code pageName} and {@code clientId} (or "-") for the security log; the
     * page's {@code path} and the {@code params} its forms carry, which the second factor's form
     * carries too; how it shows its password form again; how it goes on once the person is signed in;
     * {@code formTarget}, the origin where the way on may end (the client's, checked; null: only here),
     * which the second factor's page lets its form lead to as the sign-in page does.
     */
    record Flow(String pageName, String clientId, String path, Map<String, String> params, UriInfo uri,
            FormAgain formAgain, Function<LoginSessions.Created, Response> signedIn, String formTarget) {

        /**
         * A page that signs nobody in itself: its forms come from a signed-in page, and without a
         * session {@code signInAgain} says where to sign in.
         */
        static Flow signedInElsewhere(String pageName, UriInfo uri, FormAgain signInAgain) {
            return new Flow(pageName, "-", null, Map.of(), uri, signInAgain, null, null);
        }
    }

    private final SignIns signIns;
    private final SecondFactorPages secondFactorPages;
    private final LoginSessions sessions;
    private final SecurityLogEntries securityLog;

    SignInForm(SignIns signIns, SecondFactorPages secondFactorPages, LoginSessions sessions, SecurityLogEntries securityLog) {
        this.sessions = sessions;
        this.securityLog = securityLog;
        this.signIns = signIns;
        this.secondFactorPages = secondFactorPages;
    }

    /** The password form ({@code action=login}). */
    Uni<Response> submit(OAuthForm form, HttpServerRequest http, Flow flow) {
        String login = form.get("login");
        if (login == null || form.get("password") == null) {
            return Uni.createFrom().item(flow.formAgain().show("Enter your username or email and your password.", login, 400));
        }
        FormAgain formAgain = flow.formAgain();
        Device device = device();
        return signIns.signIn(flow.pageName(), flow.clientId(), login, form.get("password"), CallerAddress.of(http))
                .call(passed -> passed.session() == null ? Uni.createFrom().voidItem() : device.record(passed.session()))
                .map(passed -> passed.session() != null ? flow.signedIn().apply(passed.session())
                        : secondFactorPages.form(flow.path(), flow.params(), flow.formTarget(), flow.uri(), null, 200,
                                passed.pendingSignIn(), passed.personId()))
                .onFailure(SignIns.SignInRefused.class).recoverWithItem(e ->
                        ((SignIns.SignInRefused) e).throttled()
                                ? formAgain.show("Too many sign-in attempts. Wait a few minutes and try again.", login, 429)
                                : formAgain.show("The username or password is not right.", login, 401))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() ->
                        formAgain.show("Signing in is not possible for a moment. Try again shortly.", login, 503));
    }

    /** The second factor's form ({@code action=second_factor}), with the pending sign-in's cookie. */
    Uni<Response> submitSecondFactor(OAuthForm form, HttpServerRequest http, Flow flow) {
        Cookie pending = http.getCookie(PendingSignIns.COOKIE);
        String pendingValue = pending == null ? null : pending.getValue();
        String code = form.get("code");
        String credential = form.get("credential");
        if ((code == null || code.isBlank()) && (credential == null || credential.isBlank())) {
            return Uni.createFrom().item(again(flow, "Enter the code that your authenticator app shows, or a recovery code.", 400, 0));
        }
        Uni<SignIns.SecondFactorPassed> checked = credential != null && !credential.isBlank()
                ? signIns.secondFactorPasskey(flow.pageName(), flow.clientId(), pendingValue, credential)
                : signIns.secondFactor(flow.pageName(), flow.clientId(), pendingValue, code, CallerAddress.of(http));
        Device device = device();
        return checked
                .call(passed -> device.record(passed.session()))
                .map(passed -> {
                    Response signedIn = flow.signedIn().apply(passed.session());
                    return passed.recoveryCodesLeft() < 0 ? secondFactorPages.clearPending(signedIn, flow.uri())
                            : secondFactorPages.recoveryCodeUsed(signedIn, passed.recoveryCodesLeft(), flow.uri());
                })
                .onFailure(SignIns.PendingSignInGone.class).recoverWithItem(() -> flow.formAgain().show(
                        "That sign-in took too long or was finished already. Sign in again.", null, 401))
                .onFailure(SignIns.SignInRefused.class).recoverWithItem(e -> {
                    SignIns.SignInRefused refused = (SignIns.SignInRefused) e;
                    return refused.throttled()
                            ? again(flow, "Too many wrong codes. Wait a few minutes and try again.", 429, refused.personId())
                            : again(flow, credential != null && !credential.isBlank()
                                    ? "That passkey could not be checked. Try again, or enter a code."
                                    : "That code is not right, or it was used already. Wait for the next code.", 401,
                                    refused.personId());
                })
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() ->
                        again(flow, "Signing in is not possible for a moment. Try again shortly.", 503, 0));
    }

    /** The sign-in form's passkey ({@code action=passkey}): a discoverable credential, without the password. */
    Uni<Response> submitPasskey(OAuthForm form, Flow flow) {
        String credential = form.get("credential");
        if (credential == null || credential.isBlank()) {
            return Uni.createFrom().item(flow.formAgain().show("Choose a passkey to sign in with.", null, 400));
        }
        Device device = device();
        return signIns.signInWithPasskey(flow.pageName(), flow.clientId(), credential).call(device::record).map(flow.signedIn())
                .onFailure(SignIns.SignInRefused.class).recoverWithItem(() -> flow.formAgain().show(
                        "That passkey could not sign you in. Try again, or sign in with your password.", null, 401))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() ->
                        flow.formAgain().show("Signing in is not possible for a moment. Try again shortly.", null, 503));
    }

    /** The code's form again; {@code personId} (0: not known) for its passkey's challenge. */
    private Response again(Flow flow, String message, int status, long personId) {
        return secondFactorPages.form(flow.path(), flow.params(), flow.formTarget(), flow.uri(), message, status, null, personId);
    }

    /**
     * What records a sign-in made outside these forms (another provider's): where it came from,
     * read now, at the start of its request; its session and the security log record it.
     */
    Function<LoginSessions.Created, Uni<Void>> signInRecorder() {
        return device()::record;
    }

    /**
     * Where a sign-in comes from, read at the start of its request: its session records it (the
     * account page lists it), and so does the person's security log.
     */
    private Device device() {
        return new Device(securityLog.origin());
    }

    private final class Device {
        private final SecurityLogEntries.Origin origin;

        Device(SecurityLogEntries.Origin origin) {
            this.origin = origin;
        }

        Uni<Void> record(LoginSessions.Created created) {
            return sessions.describe(created.session().hash(), origin.address(), origin.userAgent())
                    .chain(() -> securityLog.signedIn(created.session().personId(), origin));
        }
    }
}
