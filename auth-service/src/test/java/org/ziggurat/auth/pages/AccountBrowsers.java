package org.ziggurat.auth.pages;

import io.restassured.response.Response;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A browser signed in on the account page, for tests outside this package. */
public final class AccountBrowsers {

    private AccountBrowsers() {
    }

    /** A browser with a person's sign-in session. */
    public static final class Browser {
        private final AuthorizeFlowTest.Browser browser;

        Browser(AuthorizeFlowTest.Browser browser) {
            this.browser = browser;
        }

        /** Whether the account page asks this browser to sign in again. */
        public boolean signedOut() {
            Response page = browser.get("/account");
            assertEquals(200, page.statusCode());
            return page.asString().contains("id=\"sign_in\"");
        }
    }

    public static Browser signedIn(String login, String password) {
        return new Browser(AccountProfilePageTest.onTheAccountPage(login, password));
    }
}
