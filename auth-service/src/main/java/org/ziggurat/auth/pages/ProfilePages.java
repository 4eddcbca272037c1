package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.Map;

/** The account page itself ({@code /account}): the profile and the sign-in address; security has its own page. */
@ApplicationScoped
class ProfilePages {

    static final String PATH = "/account";

    private final Template account;
    private final Template deleted;
    private final AuthorizePages authorizePages;

    ProfilePages(@Location("account") Template account, @Location("account_deleted") Template deleted,
            AuthorizePages authorizePages) {
        this.account = account;
        this.deleted = deleted;
        this.authorizePages = authorizePages;
    }

    /** The account's export, as a file the browser keeps. */
    Response export(String username, String json) {
        return Response.ok(json, jakarta.ws.rs.core.MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8"))
                .header("Content-Disposition", "attachment; filename=\"ziggurat-" + username + ".json\"")
                .header("Cache-Control", "no-store").header("X-Content-Type-Options", "nosniff").build();
    }

    /** The account is gone: this page, and the session's cookie with it. */
    Response deleted(DirectoryClient.DeletedAccount gone, UriInfo uri) {
        String html = deleted.data("assets", PagePaths.assets(uri)).data("username", gone.username())
                .data("organizations", gone.organizationsDeleted() == null || gone.organizationsDeleted().isEmpty() ? null
                        : String.join(", ", gone.organizationsDeleted())).render();
        return PageHeaders.page(200, html, null)
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }

    Response login(UriInfo uri, String message, String login, int status) {
        return authorizePages.loginPage(PATH, null, null, Map.of(), uri, message, login, status);
    }

    Response signedIn(UriInfo uri, LoginSessions.Created created) {
        return authorizePages.backWithSession(PATH, Map.of(), uri, created);
    }

    /** Post/redirect/get after a change. */
    Response changed(UriInfo uri) {
        return Response.status(303).header("Location", PagePaths.apiPath(uri, PATH)).header("Cache-Control", "no-store").build();
    }

    /** The page; {@code error} or {@code notice} (either may be null) above its forms. */
    Response page(LoginSessions.Session session, DirectoryClient.AccountProfile profile, String error, String notice,
            int status, UriInfo uri) {
        String html = account.data("assets", PagePaths.assets(uri)).data("action", PagePaths.apiPath(uri, PATH))
                .data("security", PagePaths.apiPath(uri, AccountPages.PATH)).data("csrf", session.csrfToken())
                .data("avatarAction", PagePaths.apiPath(uri, PATH + "/avatar"))
                .data("profile", profile).data("error", error).data("notice", notice).render();
        return PageHeaders.page(status, html, null).build();
    }
}
