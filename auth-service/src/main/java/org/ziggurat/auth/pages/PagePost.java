package org.ziggurat.auth.pages;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.http.CallerAddress;

/**
 * A page's POST as it came, for {@link PageForms}: its body (null when the resource read it
 * already, as a multipart form), where the browser reached us, and the request's headers, with
 * the cookies of the sign-in form and of the session.
 */
record PagePost(String body, UriInfo uri, HttpHeaders headers, HttpServerRequest http) {

    String contentType() {
        return http.getHeader("Content-Type");
    }

    /** A cookie's value as {@code @CookieParam} reads it: null when absent or empty. */
    String cookie(String name) {
        Cookie cookie = headers.getCookies().get(name);
        return cookie == null || cookie.getValue().isEmpty() ? null : cookie.getValue();
    }

    String sessionCookie() {
        return cookie(LoginSessions.COOKIE);
    }

    /** The sign-in form's double-submit cookie. */
    String signInCookie() {
        return cookie(LoginSessions.LOGIN_CSRF_COOKIE);
    }

    String address() {
        return CallerAddress.of(http);
    }
}
