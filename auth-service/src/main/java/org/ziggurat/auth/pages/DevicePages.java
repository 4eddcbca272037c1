package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.DeviceVerification;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.clients.PlatformName;

import java.util.Map;

/**
 * The device flow's verification pages (RFC 8628 §3.3): sign in, enter the code the device
 * shows, approve or deny what it asks, done. They share the sign-in page and its helpers with
 * {@link AuthorizePages}.
 */
@ApplicationScoped
public class DevicePages {

    static final String PATH = "/oauth/device";

    private final AuthorizePages authorizePages;
    private final Template device;
    private final Template deviceConfirm;
    private final Template deviceDone;
    private final PlatformName platformName;

    DevicePages(AuthorizePages authorizePages, @Location("device") Template device,
            @Location("device_confirm") Template deviceConfirm, @Location("device_done") Template deviceDone,
            PlatformName platformName) {
        this.authorizePages = authorizePages;
        this.device = device;
        this.deviceConfirm = deviceConfirm;
        this.deviceDone = deviceDone;
        this.platformName = platformName;
    }

    /** The sign-in page of the device flow's verification page, which posts back there. */
    public Response deviceLogin(Map<String, String> params, UriInfo uri, String message, String loginName, int status) {
        return authorizePages.loginPage(PATH, "A device", null, params, null, uri, message, loginName, status);
    }

    /** After signing in on the device page: back to it, with the session (post/redirect/get). */
    public Response deviceSignedIn(Map<String, String> params, UriInfo uri, LoginSessions.Created created) {
        return authorizePages.backWithSession(PATH, params, uri, created);
    }

    /** The device page: enter the code shown on the device. */
    public Response deviceCode(LoginSessions.Session session, UriInfo uri, String message, int status, String prefilled) {
        return PageView.of(device.data("username", session.username()).data("error", message).data("code", prefilled), uri)
                .posting(PATH).signedIn(session).answer(status).build();
    }

    /** The device page: the request the code names, to approve or deny. */
    public Response deviceConfirm(LoginSessions.Session session, DeviceVerification.Found found, String userCode, UriInfo uri) {
        return PageView.of(deviceConfirm.data("username", session.username()).data("appName", found.app().name())
                .data("userCode", userCode).data("unverified", found.registeredBy()).data("platform", platformName.name())
                .data("scopes", ScopeDescriptions.describe(found.scopes())), uri)
                .posting(PATH).signedIn(session).answer(200).build();
    }

    /** The device page: answered (or too late). */
    public Response deviceDone(boolean approved, String appName, UriInfo uri) {
        return PageView.of(deviceDone.data("approved", approved).data("appName", appName), uri).answer(200).build();
    }
}
