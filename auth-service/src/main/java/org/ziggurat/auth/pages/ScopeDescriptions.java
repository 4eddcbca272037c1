package org.ziggurat.auth.pages;

import io.quarkus.qute.TemplateData;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The scopes in plain words, for the consent page. */
public final class ScopeDescriptions {

    @TemplateData
    public record Described(String name, String description) {
    }

    private static final Map<String, String> WORDS = Map.ofEntries(
            Map.entry("public", "see your public profile and public data"),
            Map.entry("user", "see and change your private profile, including your email addresses"),
            Map.entry("write", "create content in the namespaces you may write to"),
            Map.entry("update", "change and delete content in those namespaces"),
            Map.entry("admin", "manage your applications and organizations"),
            Map.entry("account", "change your sign-in address, read your security log, export your data and delete your account"),
            Map.entry("openid", "sign you in with your Ziggurat account"),
            Map.entry("profile", "see your names, username, picture, website, language and time zone"),
            Map.entry("email", "see your email address"),
            Map.entry("offline_access", "keep this access while you are away, after you sign out, until you revoke it"),
            Map.entry("entitlements", "see the organizations you belong to and your roles in them"),
            Map.entry("orcid", "see your ORCID iD"),
            Map.entry("eduperson_assurance", "see how well your institution checked who you are"),
            Map.entry("voperson_id", "see your persistent identifier on this platform"));

    private ScopeDescriptions() {
    }

    public static List<Described> describe(Collection<String> scopes) {
        Collection<String> shown = scopes.isEmpty() ? List.of("public") : scopes;
        return shown.stream().map(s -> new Described(s, WORDS.getOrDefault(s, s))).toList();
    }
}
