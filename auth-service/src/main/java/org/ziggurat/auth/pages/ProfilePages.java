package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.authorization.LinkedSignIns;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;


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

    /**
     * The profile form's standard claims, by name: an empty field removes one (null); a field the
     * form did not send (a page from before the field was there) leaves it as it is.
     */
    static Map<String, String> details(OAuthForm form) {
        Map<String, String> details = new HashMap<>();
        for (String field : List.of("given_name", "family_name", "website", "locale", "zoneinfo")) {
            if (form.sent(field)) {
                String value = form.get(field);
                details.put(field, value == null || value.isBlank() ? null : value);
            }
        }
        return details;
    }

    /** What the page asks for each field of the profile form, in the form's order. */
    private static final List<Map.Entry<String, String>> ADVICE = List.of(
            Map.entry("display_name", "Give a name of 1 to 255 characters."),
            Map.entry("given_name", "Give a given name of 1 to 255 characters, or none."),
            Map.entry("family_name", "Give a family name of 1 to 255 characters, or none."),
            Map.entry("website", "Give a website address that starts with https:// or http://, or none."),
            Map.entry("locale", "Give a language tag such as en-GB or fr, or none."),
            Map.entry("zoneinfo", "Give a time zone such as Europe/Paris, or none."));

    /** What to do about the fields the directory refused (the advice of each, when it named none of them). */
    static String refused(List<String> fields) {
        List<String> named = ADVICE.stream().filter(a -> fields.contains(a.getKey())).map(Map.Entry::getValue).toList();
        List<String> advice = named.isEmpty() ? ADVICE.stream().map(Map.Entry::getValue).toList() : named;
        return String.join(" ", advice) + " Nothing was changed.";
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
