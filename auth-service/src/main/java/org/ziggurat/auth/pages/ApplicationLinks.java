package org.ziggurat.auth.pages;

import io.quarkus.qute.TemplateData;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ClientDescriptions;

import java.net.URI;
import java.util.Map;

/**
 * What a client registered for the pages to show when a person signs in to it or approves it
 * (OpenID Connect Registration §2): its logo ({@code logo_uri}, shown as an image), its privacy
 * policy ({@code policy_uri}) and its terms of service ({@code tos_uri}), as links the page labels as
 * the application's. Only absolute https addresses (http for a loopback host) are shown; the logo
 * is the one image from elsewhere the page's content security policy allows.
 */
@TemplateData
public record ApplicationLinks(String logo, String policy, String tos) {

    /** The application's links; null when it registered none worth showing. */
    static ApplicationLinks of(ApplicationRow app) {
        if (app.registrationMetadata() == null) {
            return null;
        }
        Map<String, Object> described = ClientDescriptions.describe(app);
        ApplicationLinks links = new ApplicationLinks(shown(described.get("logo_uri")), shown(described.get("policy_uri")),
                shown(described.get("tos_uri")));
        return links.logo() == null && links.policy() == null && links.tos() == null ? null : links;
    }

    private static String shown(Object value) {
        if (!(value instanceof String address)) {
            return null;
        }
        try {
            URI uri = URI.create(address);
            boolean loopback = "localhost".equals(uri.getHost()) || "127.0.0.1".equals(uri.getHost());
            boolean secure = "https".equals(uri.getScheme()) || "http".equals(uri.getScheme()) && loopback;
            // Quotes and spaces never reach the page's attributes or its content security policy.
            return secure && uri.getHost() != null && address.chars().noneMatch(c -> c <= ' ' || c == '"' || c == '\''
                    || c == ';' || c == ',') ? address : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
