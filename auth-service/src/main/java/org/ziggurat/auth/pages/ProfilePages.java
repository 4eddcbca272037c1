package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.authorization.LinkedSignIns;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.directory.client.DirectoryClient;


/** The account page itself ({@code /account}): the profile and the sign-in address; security has its own page. */
@ApplicationScoped
class ProfilePages {

    static final String PATH = "/account";

    private final Template account;
    private final Template deleted;
    private final UpstreamProviders providers;

    ProfilePages(@Location("account") Template account, @Location("account_deleted") Template deleted, UpstreamProviders providers) {
        this.providers = providers;
        this.account = account;
        this.deleted = deleted;
    }

    /** The account's export, as a file the browser keeps. */
    Response export(String username, String json) {
        return Response.ok(json, jakarta.ws.rs.core.MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8"))
                .header("Content-Disposition", "attachment; filename=\"ziggurat-" + username + ".json\"")
                .header("Cache-Control", "no-store").header("X-Content-Type-Options", "nosniff").build();
    }

    /** The account is gone: this page, and the session's cookie with it. */
    Response deleted(DirectoryClient.DeletedAccount gone, UriInfo uri) {
        return PageView.of(deleted.data("username", gone.username())
                .data("organizations", gone.organizationsDeleted() == null || gone.organizationsDeleted().isEmpty() ? null
                        : String.join(", ", gone.organizationsDeleted())), uri).answer(200)
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }

    /** A linked identity as the page lists it. */
    @io.quarkus.qute.TemplateData
    record IdentityRow(long id, String provider, String label, String lastUsed) {
    }

    /** The page; {@code error} or {@code notice} (either may be null) above its forms. */
    Response page(LoginSessions.Session session, DirectoryClient.AccountProfile profile, LinkedSignIns.Linked linked,
            String error, String notice, int status, UriInfo uri) {
        java.util.List<IdentityRow> identities = linked.identities().stream().map(identity -> {
            var provider = providers.find(identity.provider());
            return new IdentityRow(identity.id(), provider == null ? identity.provider() : provider.displayName(),
                    identity.displayName() == null ? identity.subject() : identity.displayName(),
                    identity.lastUsedAt() == null ? "never" : java.time.format.DateTimeFormatter.ISO_LOCAL_DATE
                            .format(identity.lastUsedAt().atOffset(java.time.ZoneOffset.UTC)));
        }).toList();
        java.util.List<AuthorizePages.ProviderButton> buttons = providers.all().stream()
                .map(p -> new AuthorizePages.ProviderButton(p.id(), p.displayName())).toList();
        return PageView.of(account.data("identities", identities).data("providers", buttons)
                .data("linkedSection", !identities.isEmpty() || !buttons.isEmpty())
                .data("federationStart", PagePaths.apiPath(uri, FederationResource.START))
                .data("secondFactorAfterUpstream", linked.secondFactorAfterUpstream())
                .data("confirmNeeded", !session.recent())
                .data("security", PagePaths.apiPath(uri, AccountPages.PATH))
                .data("avatarAction", PagePaths.apiPath(uri, PATH + "/avatar"))
                .data("profile", profile).data("error", error).data("notice", notice), uri)
                .posting(PATH).signedIn(session).answer(status).build();
    }
}
