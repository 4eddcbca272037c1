package org.ziggurat.directory.people;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Rules for namespace names (usernames and organization names): 1 to 39 of {@code [a-z0-9-]},
 * not starting or ending with a dash, and none of the names the public path space uses.
 */
public final class Names {

    private static final Pattern FORM = Pattern.compile("[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?");

    /** Route names (docs/architecture.md) and words a platform keeps for itself. */
    public static final Set<String> RESERVED = Set.of(
            "oauth", "people", "user", "users", "organizations", "orgs", "applications", "authorizations",
            "v1", "v2", "api", "internal", "q", "well-known", "vocab", "repositories", "data", "events",
            "admin", "administrator", "root", "system", "support", "help", "about", "login", "logout",
            "signin", "signup", "register", "settings", "account", "docs", "openapi", "health", "metrics",
            "static", "assets", "public", "new", "null", "undefined", "anonymous", "ziggurat", "platform",
            "identity-providers", "resource-servers", "audit", "webhooks");

    private Names() {
    }

    /** Why the name is not acceptable, or null when it is. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "is required";
        }
        if (name.length() > 39) {
            return "must be at most 39 characters";
        }
        if (!FORM.matcher(name).matches()) {
            return "may contain only lower-case letters, digits and dashes, and may not start or end with a dash";
        }
        if (RESERVED.contains(name)) {
            return "is reserved";
        }
        return null;
    }

    /** The look-up key: names are compared without regard to case. */
    public static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
