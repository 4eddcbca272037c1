package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.authorization.DeviceVerification;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.UserCodes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The device flow's verification page (RFC 8628 §3.3), in the look of the login and consent
 * pages: sign in, enter the code the device shows (or arrive with it in the address), see which
 * application asks for what, approve or deny. Every form is CSRF-protected (the login form's
 * double-submit cookie, then the session's token); wrong codes end the session after a few.
 */
@Tag(name = "OAuth")
// The class path is /oauth, not /oauth/device: RESTEasy Reactive would take /oauth/device for a
// prefix of /oauth/device_authorization (OAuthResource) and answer 404 there.
@Path("/oauth")
public class DeviceResource {

    private static final String USER_CODE = "user_code";
    private static final java.util.Set<String> ACTIONS = java.util.Set.of("verify", "approve", "deny");

    private final DeviceVerification verification;
    private final PageForms forms;
    private final LoginSessions sessions;
    private final DevicePages devicePages;

    DeviceResource(DeviceVerification verification, PageForms forms, LoginSessions sessions, DevicePages devicePages) {
        this.verification = verification;
        this.forms = forms;
        this.sessions = sessions;
        this.devicePages = devicePages;
    }

    @Operation(operationId = "showDeviceVerification", summary = "Connect a device (browser)",
    description = "RFC 8628's verification_uri: the sign-in page, then the page to enter the device's user code, with "
    + "user_code in the address (verification_uri_complete) filled in for the person to send. A GET looks no code up.")
    @SecurityRequirementsSet
    @Parameter(name = USER_CODE, in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING), example = "BCDF-GHJK")
    @APIResponse(responseCode = "200", description = "A page: sign in, enter the code, or confirm.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/device")
    public Uni<Response> show(@Context UriInfo uri, @Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String cookie) {
        QueryParameters.Read read = QueryParameters.read(uri, List.of(USER_CODE));
        Map<String, String> params = read.repeated() == null ? read.values() : Map.of();
        return sessions.find(cookie).chain(session -> {
            if (session == null) {
                return Uni.createFrom().item(devicePages.deviceLogin(params, uri, null, null, 200));
            }
            // A GET changes nothing and looks nothing up: the code of verification_uri_complete
            // is only filled in, and the person sends it (RFC 8628 §5.4: they check it first).
            return Uni.createFrom().item(devicePages.deviceCode(session, uri, null, 200, prefilled(params.get(USER_CODE))));
        });
    }

    @Operation(operationId = "answerDeviceVerification", summary = "Connect a device (the page's forms)",
    description = "The verification page's forms: action login (with its CSRF cookie), verify (a user code), approve or "
    + "deny (the session's CSRF token).")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.DeviceForm.class)))
    @APIResponse(responseCode = "200", description = "The next page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed in: back to the page.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form, or an unknown action: an error page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "A failed sign-in, or no session: the sign-in page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "429", description = "Too many sign-in attempts, or too many wrong codes (the form waits).",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "Signing in is not possible for a moment.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Path("/device")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        // The sign-in carries the user code on: made when needed, as the code is read no sooner.
        return forms.take(post, form -> forms.signInOr(post, form, () -> signInFlow(form, uri),
                action -> !ACTIONS.contains(action) ? forms.unknownAction()
                        : forms.signedIn(post, PageForms.token(form), signInFlow(form, uri), PageForms.Unsent.DEVICE,
                                session -> answer(action, form.get(USER_CODE), post.sessionCookie(), session, uri))));
    }

    /** A signed-in person's code ({@code verify}), or their answer to what it asks ({@code approve}, {@code deny}). */
    private Uni<Response> answer(String action, String typed, String cookie, LoginSessions.Session session, UriInfo uri) {
        if (typed == null) {
            return PageForms.page(devicePages.deviceCode(session, uri, "Enter the code that your device shows.", 400, null));
        }
        return verification.lockedUntil(cookie).chain(lockedUntil -> {
            if (lockedUntil != null) {
                return PageForms.page(locked(lockedUntil, session, uri));
            }
            if (action.equals("verify")) {
                return lookUp(typed, cookie, session, uri);
            }
            boolean approved = action.equals("approve");
            return verification.find(cookie, session, typed).chain(lookup -> {
                if (lookup.found() == null) {
                    return PageForms.page(notFound(lookup, session, uri));
                }
                return verification.decide(lookup.found(), session, approved).map(decided -> decided
                        ? devicePages.deviceDone(approved, lookup.found().app().name(), uri)
                        : devicePages.deviceCode(session, uri, "This code was answered already, or it expired.", 400, null));
            });
        });
    }

    private Uni<Response> lookUp(String typed, String cookie, LoginSessions.Session session, UriInfo uri) {
        return verification.find(cookie, session, typed).map(lookup -> lookup.found() == null ? notFound(lookup, session, uri)
                : devicePages.deviceConfirm(session, lookup.found(), UserCodes.display(lookup.found().userCode()), uri));
    }

    private Response notFound(DeviceVerification.Lookup lookup, LoginSessions.Session session, UriInfo uri) {
        if (lookup.lockedUntil() != null) {
            return locked(lookup.lockedUntil(), session, uri);
        }
        return devicePages.deviceCode(session, uri, "That code is not right, or it expired. Check the code on your device.", 400, null);
    }

    /** Too many wrong codes: the form waits, the session goes on (it may be another site's doing). */
    private Response locked(java.time.Instant until, LoginSessions.Session session, UriInfo uri) {
        long minutes = Math.max(1, (java.time.Duration.between(java.time.Instant.now(), until).toSeconds() + 59) / 60);
        return devicePages.deviceCode(session, uri, "Too many wrong codes. Try again in " + minutes
                + (minutes == 1 ? " minute." : " minutes."), 429, null);
    }

    /** A code from the address, shown in the form only if it looks like one. */
    private static String prefilled(String code) {
        return code != null && code.length() <= 32 && code.matches("[A-Za-z0-9 -]*") ? code : null;
    }

    private SignInForm.Flow signInFlow(OAuthForm form, UriInfo uri) {
        Map<String, String> params = codeOf(form);
        return new SignInForm.Flow("device", "-", DevicePages.PATH, params, uri,
                (message, login, status) -> devicePages.deviceLogin(params, uri, message, login, status),
                created -> devicePages.deviceSignedIn(params, uri, created), null);
    }

    /** The device page's parameters that a form carries back: the user code, when it is one's length. */
    static Map<String, String> codeOf(OAuthForm form) {
        Map<String, String> params = new LinkedHashMap<>();
        String code = form.get(USER_CODE);
        if (code != null && code.length() <= 32) {
            params.put(USER_CODE, code);
        }
        return params;
    }
}
