package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.IdentityDouble;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.FederationFlowTest.formWith;
import static org.ziggurat.auth.pages.FederationFlowTest.press;
import static org.ziggurat.auth.pages.FederationFlowTest.signInThrough;

/**
 * A session cookie alone adds no way into the account: past a few minutes after its sign-in, an
 * authenticator app, a passkey, another provider's identity, or turning the second factor after
 * another provider off, each needs the password again. (Within those minutes, the e2e journeys add
 * them straight after signing in.)
 */
@QuarkusTest
class RecentSignInTest {

    private static final long LEE = 112;

    @Inject
    Pool pool;

    /** lee, signed in on the account page an hour ago (as a stolen cookie would be used later). */
    private AuthorizeFlowTest.Browser leeSignedInLongAgo() {
        AuthorizeFlowTest.Browser browser = AccountProfilePageTest.onTheAccountPage("lee", "lee password 12");
        pool.preparedQuery("UPDATE login_session SET created_at = created_at - interval '1 hour' WHERE person_id = $1")
                .execute(Tuple.of(LEE)).await().atMost(Duration.ofSeconds(10));
        return browser;
    }

    @Test
    void anOldSessionStartsNoAuthenticatorAppWithoutThePassword() {
        AuthorizeFlowTest.Browser browser = leeSignedInLongAgo();
        Response page = browser.get("/account/security");
        assertTrue(page.asString().contains("id=\"start_totp_password\""), "the form asks for the password");
        Map<String, String> start = formWith(page.asString(), "start_totp");
        start.remove("_action");
        Response refused = browser.post("/account/security", start);
        assertEquals(401, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("Confirm with your password"), refused.asString());
        assertFalse(DirectoryDouble.TOTP_STARTED.contains(LEE), "no key was made");
        start.put("password", "not lee's password");
        assertEquals(401, browser.post("/account/security", start).statusCode());
        assertFalse(DirectoryDouble.TOTP_STARTED.contains(LEE));

        start.put("password", "lee password 12");
        Response key = browser.post("/account/security", start);
        assertEquals(200, key.statusCode(), key.asString());
        assertTrue(key.asString().contains("id=\"totp_key\""), key.asString());
        assertTrue(DirectoryDouble.TOTP_STARTED.contains(LEE));
    }

    @Test
    void anOldSessionAddsNoPasskeyWithoutThePassword() {
        AuthorizeFlowTest.Browser browser = leeSignedInLongAgo();
        Response page = browser.get("/account/security");
        assertTrue(page.asString().contains("id=\"add_passkey_password\""), "the form asks for the password");
        Map<String, String> add = formWith(page.asString(), "add_passkey");
        add.remove("_action");
        add.put("name", "Thief's key");
        add.put("credential", "{\"id\":\"x\"}");
        Response refused = browser.post("/account/security", add);
        assertEquals(401, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("Confirm with your password"), refused.asString());
        // With the password, the registration itself is what is checked next (this one is no passkey).
        add.put("password", "lee password 12");
        Response checked = browser.post("/account/security", add);
        assertEquals(400, checked.statusCode(), checked.asString());
        assertTrue(checked.asString().contains("The passkey could not be added"), checked.asString());
    }

    @Test
    void anOldSessionLinksNoOtherProvidersIdentityWithoutThePassword() {
        AuthorizeFlowTest.Browser browser = leeSignedInLongAgo();
        // From the account page's link button: nothing leads to the provider without the password.
        Response account = browser.get("/account");
        assertTrue(account.asString().contains("id=\"link_password_institution\""), account.asString());
        Map<String, String> link = formWith(account.asString(), "link_institution");
        String action = AuthorizeFlowTest.relative(link.remove("_action"));
        Response refused = browser.post(action, link);
        assertEquals(401, refused.statusCode(), refused.asString());
        assertFalse(refused.asString().contains("id=\"to_provider\""));
        link.put("password", "lee password 12");
        assertTrue(browser.post(action, link).asString().contains("id=\"to_provider\""), "on to the provider");

        // From a sign-in page's provider button: an identity nobody has; then lee's (old) session cookie in
        // that browser, as a thief would set it, and the choice page offers to link to lee.
        AuthorizeFlowTest.Browser thief = new AuthorizeFlowTest.Browser();
        signInThrough(thief, "institution", "lee-at-uni");
        thief.cookies.put(org.ziggurat.auth.authorization.LoginSessions.COOKIE,
                browser.cookies.get(org.ziggurat.auth.authorization.LoginSessions.COOKIE));
        browser = thief;
        Response choice = browser.get("/account/federation/identity");
        assertTrue(choice.asString().contains("id=\"link_identity\""), choice.asString());
        assertTrue(choice.asString().contains("id=\"link_password\""), "the link asks for the password");
        Response notLinked = press(browser, choice.asString(), "link_identity");
        assertEquals(401, notLinked.statusCode(), notLinked.asString());
        assertFalse(IdentityDouble.linkedTo("institution", "lee-at-uni", LEE), "nothing was linked");
        Response linked = press(browser, notLinked.asString(), "link_identity", "password", "lee password 12");
        assertEquals(303, linked.statusCode(), linked.asString());
        assertTrue(IdentityDouble.linkedTo("institution", "lee-at-uni", LEE));
    }

    @Test
    void anOldSessionTurnsTheSecondFactorAfterAProviderOffOnlyWithThePassword() {
        AuthorizeFlowTest.Browser browser = leeSignedInLongAgo();
        Response account = browser.get("/account");
        Map<String, String> off = formWith(account.asString(), "save_upstream_settings");
        off.remove("_action");
        off.remove("second_factor_after_upstream");
        Response refused = browser.post("/account", off);
        assertEquals(401, refused.statusCode(), refused.asString());
        assertFalse(IdentityDouble.noSecondFactorAfterUpstream(LEE), "still asked");
        off.put("password", "lee password 12");
        assertEquals(303, browser.post("/account", off).statusCode());
        assertTrue(IdentityDouble.noSecondFactorAfterUpstream(LEE));
        // Turning the protection back on needs nothing more.
        Map<String, String> on = formWith(browser.get("/account").asString(), "save_upstream_settings");
        on.remove("_action");
        on.remove("password");
        on.put("second_factor_after_upstream", "yes");
        assertEquals(303, browser.post("/account", on).statusCode());
        assertFalse(IdentityDouble.noSecondFactorAfterUpstream(LEE));
    }
}
