package org.ziggurat.auth.pages;

import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;

import java.util.ArrayList;
import java.util.List;

/**
 * A page as it is served, the other half of {@link PageForms}: its template with our assets, the
 * path its forms post to, the CSRF token they carry back (the session's; or, before there is a
 * session, a fresh one that the sign-in form's cookie carries too), under {@link PageHeaders}'
 * headers, whose {@code form-action} names where its forms may lead besides this site.
 */
final class PageView {

    private final TemplateInstance template;
    private final UriInfo uri;
    private final List<NewCookie> cookies = new ArrayList<>();
    private String formTarget;
    private String imageSource;

    private PageView(TemplateInstance template, UriInfo uri) {
        this.template = template.data("assets", PagePaths.assets(uri));
        this.uri = uri;
    }

    static PageView of(TemplateInstance template, UriInfo uri) {
        return new PageView(template, uri);
    }

    /** Its forms post to {@code path}. */
    PageView posting(String path) {
        template.data("action", PagePaths.apiPath(uri, path));
        return this;
    }

    /** Its forms are a signed-in person's: they carry the session's token. */
    PageView signedIn(LoginSessions.Session session) {
        template.data("csrf", session.csrfToken());
        return this;
    }

    /** Its forms are sent before there is a session: {@code token}, fresh, in them and in the sign-in form's cookie. */
    PageView beforeSession(String token) {
        template.data("csrf", token);
        cookies.add(PageHeaders.cookie(LoginSessions.LOGIN_CSRF_COOKIE, token, PagePaths.secure(uri), 3600));
        return this;
    }

    /** Where its forms may lead besides this site (a client's origin, checked); null: nowhere else. */
    PageView leadingTo(String formTarget) {
        this.formTarget = formTarget;
        return this;
    }

    /** What an application registered for the pages to show of it (its logo, its policy and terms), checked; null: none. */
    PageView showing(ApplicationLinks links) {
        template.data("links", links);
        this.imageSource = links == null ? null : links.logo();
        return this;
    }

    Response.ResponseBuilder answer(int status) {
        Response.ResponseBuilder page = PageHeaders.page(status, template.render(), formTarget, imageSource);
        return cookies.isEmpty() ? page : page.cookie(cookies.toArray(NewCookie[]::new));
    }
}
