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

    private static final Map<String, String> WORDS = Map.of(
            "public", "see your public profile and public data",
            "user", "see and change your private profile, including your email addresses",
            "write", "create content in the namespaces you may write to",
            "update", "change and delete content in those namespaces",
            "admin", "manage your applications and organizations",
            "account", "change your sign-in address, read your security log, export your data and delete your account",
            "openid", "sign you in with your Ziggurat account",
            "profile", "see your name, username and picture",
            "email", "see your email address",
            "offline_access", "keep this access while you are away, after you sign out, until you revoke it");

    private ScopeDescriptions() {
    }

    public static List<Described> describe(Collection<String> scopes) {
        Collection<String> shown = scopes.isEmpty() ? List.of("public") : scopes;
        return shown.stream().map(s -> new Described(s, WORDS.getOrDefault(s, s))).toList();
    }
}
