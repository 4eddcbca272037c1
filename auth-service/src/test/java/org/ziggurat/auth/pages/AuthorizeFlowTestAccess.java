package org.ziggurat.auth.pages;

import io.restassured.response.Response;

/** The pages' test browser and a sign-in through a provider, for tests outside this package. */
public final class AuthorizeFlowTestAccess {

    private AuthorizeFlowTestAccess() {
    }

    public static final class Browser {
        final AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
    }

    /** From the account page's button through the provider double: the answer to the provider's answer. */
    public static Response signInThrough(Browser browser, String provider, String user) {
        return FederationFlowTest.signInThrough(browser.browser, provider, user);
    }

    /** On the choice page that a sign-in through a provider led to: a new account with this name and address. */
    public static Response createAccount(Browser browser, String username, String email) {
        return FederationFlowTest.press(browser.browser, browser.browser.get("/account/federation/identity").asString(),
                "create_account", "username", username, "email", email);
    }
}
