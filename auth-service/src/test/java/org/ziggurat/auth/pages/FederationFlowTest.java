package org.ziggurat.auth.pages;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.DirectoryDouble;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.UpstreamDouble;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.hiddenFields;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.query;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.relative;

/**
 * Signing in with another provider, end to end against the provider doubles (UpstreamDouble: two
 * OpenID Connect realms, an ORCID, a GitHub): a new account made with an identity, an identity
 * linked only after the account's owner signed in (never by a matching address), the answer's
 * state, nonce, issuer and browser checked, the account's own second factor after a provider, the
 * research claims an application then gets, and the account page's links.
 */
@QuarkusTest
class FederationFlowTest {

    private static final String RESEARCH_SCOPES = "openid profile entitlements orcid eduperson_assurance voperson_id";

    @Inject
    Pool pool;

    static App researchApp() {
        return OAuthTestSupport.createApp(true, RESEARCH_SCOPES + " email", CALLBACK);
    }

    static String authorizeUrl(App app, String state, String nonce) {
        return "/oauth/authorize?response_type=code&client_id=" + app.clientId() + "&redirect_uri="
                + AuthorizeFlowTest.enc(CALLBACK) + "&scope=" + AuthorizeFlowTest.enc(RESEARCH_SCOPES) + "&state=" + state
                + "&nonce=" + nonce;
    }

    /** The hidden fields and action of the form on the page that holds the element {@code id}. */
    static Map<String, String> formWith(String html, String id) {
        Matcher forms = Pattern.compile("<form method=\"post\" action=\"([^\"]+)\"[^>]*>(.*?)</form>", Pattern.DOTALL).matcher(html);
        while (forms.find()) {
            if (forms.group(2).contains("id=\"" + id + "\"")) {
                Map<String, String> fields = hiddenFields(forms.group(2));
                fields.put("_action", forms.group(1));
                return fields;
            }
        }
        throw new AssertionError("no form with #" + id + " in " + html);
    }

    /** Presses the button {@code id} of the page: the answer to its form. */
    static Response press(AuthorizeFlowTest.Browser browser, String html, String id, String... more) {
        Map<String, String> form = formWith(html, id);
        String action = relative(form.remove("_action"));
        for (int i = 0; i < more.length; i += 2) {
            form.put(more[i], more[i + 1]);
        }
        return browser.post(action, form);
    }

    /** The provider's URL that the page after a provider's button leads on to (its script follows the link). */
    static String providerUrl(Response toProvider) {
        assertEquals(200, toProvider.statusCode(), toProvider.asString());
        Matcher link = Pattern.compile("<a id=\"to_provider\" class=\"button\" href=\"([^\"]+)\"").matcher(toProvider.asString());
        assertTrue(link.find(), toProvider.asString());
        return link.group(1).replace("&amp;", "&");
    }

    /** At the provider, {@code user} signs in: where the provider sends the browser back. */
    static String atProvider(Response toProvider, String user, String... extra) {
        StringBuilder url = new StringBuilder(providerUrl(toProvider)).append("&user=").append(user);
        for (int i = 0; i < extra.length; i += 2) {
            url.append('&').append(extra[i]).append('=').append(extra[i + 1]);
        }
        Response answer = given().redirects().follow(false).urlEncodingEnabled(false).get(url.toString());
        assertEquals(302, answer.statusCode(), answer.asString());
        return answer.getHeader("Location");
    }

    /**
     * Back here: the page the provider sent the browser to (the provider's own redirect URI), then
     * its form posted (as its script does) to where the form leads: that same path.
     */
    static Response back(AuthorizeFlowTest.Browser browser, String callback) {
        assertTrue(callback.startsWith("http://localhost:8080/api/account/federation/callback/"), callback);
        Response page = browser.get(relative(callback));
        assertEquals(200, page.statusCode(), page.asString());
        assertTrue(page.asString().contains("id=\"continue_form\""));
        return browser.post(continueAction(page.asString()), hiddenFields(page.asString()));
    }

    /** Where the page that posts a provider's answer posts it (this site's path, without the gateway's prefix). */
    static String continueAction(String html) {
        Matcher action = Pattern.compile("<form method=\"post\" action=\"([^\"]+)\" id=\"continue_form\"").matcher(html);
        assertTrue(action.find(), html);
        return relative(action.group(1));
    }

    /** The provider's own redirect URI here. */
    static String callbackOf(String provider) {
        return "/account/federation/callback/" + provider;
    }

    /** From the account page's sign-in: the provider's button, the provider, and back. */
    static Response signInThrough(AuthorizeFlowTest.Browser browser, String provider, String user) {
        Response login = browser.get("/account");
        assertTrue(login.asString().contains("id=\"provider_" + provider + "\""), login.asString());
        return back(browser, atProvider(press(browser, login.asString(), "provider_" + provider), user));
    }

    /** The link mailed for a new account at {@code email}, opened (a Confirm button, nothing made) and confirmed. */
    static void confirmByMail(String email) {
        String token = org.ziggurat.auth.IdentityDouble.confirmationToken(email);
        assertNotNull(token, "a link went to " + email);
        AuthorizeFlowTest.Browser mailbox = new AuthorizeFlowTest.Browser();
        Response page = mailbox.get("/account/federation/confirmation?token=" + token);
        assertEquals(200, page.statusCode(), page.asString());
        assertTrue(page.asString().contains("id=\"confirm\""), page.asString());
        // It says what the link makes: the account, its address, the provider.
        assertTrue(page.asString().contains("id=\"confirmation_details\"") && page.asString().contains(email), page.asString());
        assertFalse(org.ziggurat.auth.IdentityDouble.addressTaken(email), "a GET makes nothing");
        Response made = mailbox.post("/account/federation/confirmation", hiddenFields(page.asString()));
        assertEquals(201, made.statusCode(), made.asString());
        assertTrue(made.asString().contains("id=\"account_made\""), made.asString());
        assertFalse(mailbox.cookies.containsKey("ziggurat_session"), "nobody is signed in by a mailed link");
    }

    private long count(String sql) {
        return pool.query(sql).execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
    }

    @Test
    void aNewPersonMakesAnAccountThroughTheirInstitutionAndTheApplicationGetsResearchClaims() throws Exception {
        App app = researchApp();
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        Response login = browser.get(authorizeUrl(app, "s-fed-1", "n-fed-1"));
        assertEquals(200, login.statusCode());
        assertTrue(login.asString().contains("Sign in with your institution"));
        assertTrue(login.asString().contains("Sign in with GitHub"));
        Response toProvider = press(browser, login.asString(), "provider_institution");
        assertTrue(providerUrl(toProvider).contains("/a/authorize?"), providerUrl(toProvider));
        Map<String, String> request = query(providerUrl(toProvider));
        assertEquals("S256", request.get("code_challenge_method"));
        assertEquals("http://localhost:8080/api/account/federation/callback/institution", request.get("redirect_uri"),
                "the provider's own redirect URI");
        assertNotNull(request.get("nonce"));
        assertTrue(browser.cookies.containsKey("ziggurat_federation"), "the attempt is bound to this browser");
        String callback = atProvider(toProvider, "nova-1");
        Map<String, String> answer = query(callback);
        assertNotNull(answer.get("iss"));

        // The page the provider sends the browser to changes nothing: its GET twice, then its form.
        long attempts = count("SELECT count(*) FROM federation_attempt");
        Response continuePage = browser.get(relative(callback));
        assertEquals(200, continuePage.statusCode());
        // Its form's way on ends at the application (Chromium holds the redirects to the form's CSP).
        continuePage.then().header("Content-Security-Policy",
                org.hamcrest.Matchers.containsString("form-action 'self' https://app.example.org;"));
        assertEquals(attempts, count("SELECT count(*) FROM federation_attempt"), "a GET took no attempt");
        Response held = back(browser, callback);
        assertEquals(303, held.statusCode(), held.asString());
        assertTrue(held.getHeader("Location").endsWith("/account/federation/identity"));

        Response choice = browser.get("/account/federation/identity");
        assertEquals(200, choice.statusCode());
        choice.then().header("Content-Security-Policy", org.hamcrest.Matchers.containsString("form-action 'self' https://app.example.org;"));
        String page = choice.asString();
        assertTrue(page.contains("nova-1@uni.example"), page);
        assertTrue(page.contains("value=\"nova-1\""), "the username proposed from the provider's");
        assertFalse(page.contains("id=\"link_identity\""), "nobody is signed in here: nothing to link to");
        // A GET releases nothing (and each view of the page has a CSRF token of its own: the latest counts).
        page = browser.get("/account/federation/identity").asString();
        assertTrue(page.contains("value=\"nova-1\""));

        // A taken name is refused and nothing is made.
        Response taken = press(browser, page, "create_account", "username", "alice", "display_name", "Nova",
                "email", "nova-1@uni.example");
        assertEquals(409, taken.statusCode(), taken.asString());
        Response bad = press(browser, taken.asString(), "create_account", "username", "-nova-", "email", "nova-1@uni.example");
        assertEquals(422, bad.statusCode());
        Response created = press(browser, bad.asString(), "create_account", "username", "nova-one", "display_name", "Nova One",
                "email", "nova-1@uni.example");
        assertEquals(303, created.statusCode(), created.asString());
        assertTrue(created.getHeader("Location").contains("/oauth/authorize?"), "back to the application's request");
        assertTrue(browser.cookies.containsKey("ziggurat_session"));

        Map<String, String> code = OpenIdConnectTest.authorize(browser, relative(created.getHeader("Location")));
        assertEquals("s-fed-1", code.get("state"));
        Map<String, Object> tokens = OpenIdConnectTest.exchange(app, code.get("code"));
        IDTokenClaimsSet claims = OpenIdConnectTest.validator(app, JWSAlgorithm.RS256)
                .validate(JWTParser.parse((String) tokens.get("id_token")), new Nonce("n-fed-1"));
        String person = claims.getSubject().getValue();
        assertEquals("https://orcid.org/0000-0002-1825-0097", claims.getClaim("orcid"), "the institution's ORCID claim");
        // What the institution asserted at this sign-in, as far as its operator lets it: not another authority's value.
        assertEquals(List.of("https://refeds.org/assurance", UpstreamDouble.RAF_MEDIUM), claims.getClaim("eduperson_assurance"));
        assertEquals(person + "@example.org", claims.getClaim("voperson_id"));
        assertNull(claims.getClaim("eduperson_entitlement"), "a new person belongs to no organization yet");
        assertEquals(List.of("pwd"), claims.getClaim("amr"), "how the institution signed the person in");

        String access = (String) tokens.get("access_token");
        given().auth().oauth2(access).get("/oauth/userinfo").then().statusCode(200)
                .body("orcid", org.hamcrest.Matchers.equalTo("https://orcid.org/0000-0002-1825-0097"))
                .body("voperson_id", org.hamcrest.Matchers.equalTo(person + "@example.org"));
        OAuthTestSupport.introspect(access).statusCode(200)
                .body("eduperson_assurance", org.hamcrest.Matchers.hasItem(UpstreamDouble.RAF_MEDIUM))
                .body("voperson_id", org.hamcrest.Matchers.equalTo(person + "@example.org"));

        // Next time the same identity signs the person straight in.
        AuthorizeFlowTest.Browser again = new AuthorizeFlowTest.Browser();
        Response signedIn = signInThrough(again, "institution", "nova-1");
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        assertTrue(again.get("/account").asString().contains("nova-one"));
    }

    @Test
    void aMatchingAddressLinksNothingTheOwnerSignsInFirst() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        // The institution vouches for alice@example.org, verified: the address of alice's account.
        Response held = signInThrough(browser, "institution", "as-alice");
        assertEquals(303, held.statusCode());
        assertTrue(browser.get("/account").asString().contains("id=\"sign_in\""), "nobody is signed in");
        Response choice = browser.get("/account/federation/identity");
        assertFalse(choice.asString().contains("id=\"link_identity\""));
        Response sameAddress = press(browser, choice.asString(), "create_account", "username", "alice-two",
                "email", "alice@example.org");
        assertEquals(409, sameAddress.statusCode());
        assertTrue(sameAddress.asString().contains("sign in to that account to link"), sameAddress.asString());

        assertTrue(sameAddress.asString().contains("id=\"passkey_sign_in\""), "a passkey signs in to link too");
        Response forgedPasskey = press(browser, sameAddress.asString(), "sign_in", "action", "passkey", "credential",
                "{\"id\":\"bm9uZQ\",\"type\":\"public-key\"}");
        assertEquals(401, forgedPasskey.statusCode(), "a passkey that is no one's signs nobody in");
        Response wrong = press(browser, forgedPasskey.asString(), "sign_in", "login", "alice", "password", "not alice's");
        assertEquals(401, wrong.statusCode());
        Response signedIn = press(browser, wrong.asString(), "sign_in", "login", "alice", "password", "alice password 1");
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        Response offer = browser.get("/account/federation/identity");
        assertTrue(offer.asString().contains("id=\"link_identity\""), "the owner, signed in, may now link it");
        // Not yet linked: another browser's sign-in through the institution still finds no account.
        AuthorizeFlowTest.Browser other = new AuthorizeFlowTest.Browser();
        assertTrue(signInThrough(other, "institution", "as-alice").getHeader("Location").endsWith("/account/federation/identity"));

        Response linked = press(browser, offer.asString(), "link_identity");
        assertEquals(303, linked.statusCode(), linked.asString());
        assertTrue(linked.getHeader("Location").endsWith("/account"));
        assertEquals(400, browser.get("/account/federation/identity").statusCode(), "released once linked");

        AuthorizeFlowTest.Browser later = new AuthorizeFlowTest.Browser();
        Response direct = signInThrough(later, "institution", "as-alice");
        assertEquals(303, direct.statusCode());
        assertTrue(later.get("/account").asString().contains(">alice<"));
        // The other browser's choice is still there, but the identity is alice's now: no second account.
        Response late = press(other, other.get("/account/federation/identity").asString(), "create_account",
                "username", "late-alice", "email", "late@uni.example");
        assertEquals(409, late.statusCode());
    }

    @Test
    void theAnswerIsCheckedStateNonceIssuerAndBrowser() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        Response login = browser.get("/account");
        String callback = atProvider(press(browser, login.asString(), "provider_institution"), "checked-1");
        Map<String, String> answer = hiddenFields(browser.get(relative(callback)).asString());

        // Another browser cannot finish it: the attempt is this browser's.
        Response stranger = new AuthorizeFlowTest.Browser().post(callbackOf("institution"), answer);
        assertEquals(400, stranger.statusCode());
        Map<String, String> tampered = new HashMap<>(answer);
        tampered.put("state", answer.get("state") + "x");
        assertEquals(400, browser.post(callbackOf("institution"), tampered).statusCode());
        // At another provider's redirect URI, or the one all shared before, the answer is no attempt's.
        assertEquals(400, browser.post(callbackOf("github"), answer).statusCode(), "another provider's redirect URI");
        assertEquals(400, browser.post("/account/federation/callback", answer).statusCode(), "the shared one of old");
        // The right browser and state: it goes on (the attempts above took nothing), once.
        assertEquals(303, browser.post(callbackOf("institution"), answer).statusCode());
        assertEquals(400, browser.post(callbackOf("institution"), answer).statusCode(), "an answer is good once");

        // A wrong nonce in the ID token.
        Response nonce = back(browser, atProvider(press(browser, browser.get("/account").asString(), "provider_institution"),
                "checked-2", "tamper", "nonce"));
        assertEquals(401, nonce.statusCode(), nonce.asString());
        assertTrue(nonce.asString().contains("could not be verified"));

        // Mix-up: the attempt is the institution's (realm a); realm b answers in its place, with its issuer.
        Response toA = press(browser, browser.get("/account").asString(), "provider_institution");
        String realmA = providerUrl(toA);
        Response viaB = given().redirects().follow(false).urlEncodingEnabled(false)
                .get(realmA.replace("/a/authorize", "/b/authorize") + "&user=checked-3");
        Map<String, String> fromB = hiddenFields(browser.get(relative(viaB.getHeader("Location"))).asString());
        assertTrue(fromB.get("iss").endsWith("/b"));
        assertEquals(401, browser.post(callbackOf("institution"), fromB).statusCode(), "the other issuer is refused");

        // An answer without iss, from a provider that announces it.
        Response toA2 = press(browser, browser.get("/account").asString(), "provider_institution");
        Map<String, String> noIss = hiddenFields(browser.get(relative(atProvider(toA2, "checked-4"))).asString());
        noIss.remove("iss");
        assertEquals(401, browser.post(callbackOf("institution"), noIss).statusCode());

        // The person turned back at the provider.
        Response toA3 = press(browser, browser.get("/account").asString(), "provider_institution");
        Map<String, String> denied = new HashMap<>(query(providerUrl(toA3)));
        Response cancelled = browser.post(callbackOf("institution"), Map.of("state", denied.get("state"),
                "error", "access_denied"));
        assertEquals(401, cancelled.statusCode());
        assertTrue(cancelled.asString().contains("cancelled"));
        assertTrue(cancelled.asString().contains("id=\"start_again\""));

        // Forms this site did not send, providers it does not have.
        Map<String, String> start = formWith(browser.get("/account").asString(), "provider_institution");
        start.remove("_action");
        start.put("csrf", "forged");
        assertEquals(403, browser.post("/account/federation/start", start).statusCode());
        start = formWith(browser.get("/account").asString(), "provider_institution");
        start.remove("_action");
        start.put("provider", "nowhere");
        assertEquals(400, browser.post("/account/federation/start", start).statusCode());
        start.put("provider", "institution");
        start.put("return_path", "https://evil.example/");
        assertEquals(400, browser.post("/account/federation/start", start).statusCode(), "only this site's pages to return to");
        assertEquals(400, browser.get("/account/federation/callback?code=x").statusCode(), "no state");
    }

    @Test
    void gitHubSignsInThroughItsUserApiAndAProviderMayOnlyLink() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        Response held = signInThrough(browser, "github", "octo-cat");
        assertEquals(303, held.statusCode(), held.asString());
        Response choice = browser.get("/account/federation/identity");
        assertTrue(choice.asString().contains("octo-cat@octo.example"), "the primary address GitHub verified: " + choice.asString());
        Response created = press(browser, choice.asString(), "create_account", "username", "octo-cat", "email",
                "octo-cat@octo.example");
        assertEquals(303, created.statusCode(), created.asString());
        AuthorizeFlowTest.Browser again = new AuthorizeFlowTest.Browser();
        assertEquals(303, signInThrough(again, "github", "octo-cat").statusCode());
        assertTrue(again.get("/account").asString().contains("octo-cat"));

        // Partner makes no accounts: its identity may only be linked.
        AuthorizeFlowTest.Browser partner = new AuthorizeFlowTest.Browser();
        signInThrough(partner, "partner", "partner-1");
        Response only = partner.get("/account/federation/identity");
        assertFalse(only.asString().contains("id=\"create_account\""));
        Map<String, String> forged = formWith(only.asString(), "sign_in");
        forged.remove("_action");
        forged.put("action", "create");
        forged.put("username", "partner-one");
        forged.put("email", "partner-1@uni.example");
        assertEquals(403, partner.post("/account/federation/identity", forged).statusCode());
    }

    @Test
    void theAccountsOwnSecondFactorComesAfterAProviderUnlessTurnedOff() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        signInThrough(browser, "institution", "as-kai");
        Response choice = browser.get("/account/federation/identity");
        Response code = press(browser, choice.asString(), "sign_in", "login", "kai", "password", "kai password 11");
        assertEquals(200, code.statusCode(), "kai's own second factor, for the sign-in to his account");
        Response signedIn = press(browser, code.asString(), "verify_code", "code",
                DirectoryDouble.totp(DirectoryDouble.currentStep() - 1));
        assertEquals(303, signedIn.statusCode(), signedIn.asString());
        assertEquals(303, press(browser, browser.get("/account/federation/identity").asString(), "link_identity").statusCode());

        AuthorizeFlowTest.Browser later = new AuthorizeFlowTest.Browser();
        Response due = signInThrough(later, "institution", "as-kai");
        assertEquals(200, due.statusCode(), "the code's form, not a session");
        assertFalse(later.cookies.containsKey("ziggurat_session"));
        Response done = press(later, due.asString(), "verify_code", "code", DirectoryDouble.totp(DirectoryDouble.currentStep()));
        assertEquals(303, done.statusCode(), done.asString());
        assertEquals(2, count("SELECT count(*) FROM login_session WHERE person_id = 111 AND amr = '{pwd,otp,mfa}'"),
                "both sessions: the password then the code, and the institution's pwd then the code");

        // Kai turns it off on the account page: the institution alone signs him in.
        Response account = later.get("/account");
        Map<String, String> settings = formWith(account.asString(), "save_upstream_settings");
        settings.remove("_action");
        settings.remove("second_factor_after_upstream");
        assertEquals(303, later.post("/account", settings).statusCode());
        AuthorizeFlowTest.Browser third = new AuthorizeFlowTest.Browser();
        assertEquals(303, signInThrough(third, "institution", "as-kai").statusCode());
        assertTrue(third.cookies.containsKey("ziggurat_session"));
    }

    @Test
    void theAccountPageListsLinksLinksMoreAndKeepsTheLastWayToSignIn() {
        // A person made through ORCID, with no password.
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        signInThrough(browser, "orcid", "0000-0002-1694-233X");
        Response choice = browser.get("/account/federation/identity");
        // An address ORCID did not verify: the account is made once the link mailed there is used.
        Response mailed = press(browser, choice.asString(), "create_account", "username", "orcid-person",
                "email", "orcid-person@uni.example");
        assertEquals(200, mailed.statusCode(), mailed.asString());
        assertTrue(mailed.asString().contains("id=\"confirmation_mailed\""), mailed.asString());
        confirmByMail("orcid-person@uni.example");
        assertEquals(303, signInThrough(browser, "orcid", "0000-0002-1694-233X").statusCode());
        Response account = browser.get("/account");
        assertTrue(account.asString().contains("id=\"linked_identities\""), account.asString());
        assertTrue(account.asString().contains("ORCID</strong>: 0000-0002-1694-233X"), account.asString());
        Matcher unlink = Pattern.compile("id=\"unlink_(\\d+)\"").matcher(account.asString());
        assertTrue(unlink.find());
        String orcidLink = unlink.group(1);
        Response last = press(browser, account.asString(), "unlink_" + orcidLink);
        assertEquals(409, last.statusCode(), "the only way in");

        // Linking GitHub from the account page: the session's form, the provider, back to the page.
        Response toGitHub = press(browser, last.asString(), "link_github");
        Response linked = back(browser, atProvider(toGitHub, "orcid-person-gh"));
        assertEquals(303, linked.statusCode(), linked.asString());
        assertTrue(linked.getHeader("Location").endsWith("/account"));
        Response withTwo = browser.get("/account");
        assertTrue(withTwo.asString().contains("GitHub</strong>"));
        assertEquals(200, press(browser, withTwo.asString(), "unlink_" + orcidLink).statusCode());
        assertFalse(browser.get("/account").asString().contains("ORCID</strong>"));

        // A link form without the session's token changes nothing.
        Map<String, String> forged = formWith(browser.get("/account").asString(), "link_github");
        forged.remove("_action");
        forged.put("csrf", "forged");
        assertEquals(403, browser.post("/account/federation/start", forged).statusCode());
        // Someone else's identity cannot join this account.
        AuthorizeFlowTest.Browser someoneElse = new AuthorizeFlowTest.Browser();
        signInThrough(someoneElse, "github", "gh-someone-else");
        assertEquals(303, press(someoneElse, someoneElse.get("/account/federation/identity").asString(), "create_account",
                "username", "gh-someone-else", "email", "gh-someone-else@octo.example").statusCode());
        Response elsewhere = back(browser, atProvider(press(browser, browser.get("/account").asString(), "link_github"),
                "gh-someone-else"));
        assertEquals(409, elsewhere.statusCode(), elsewhere.asString());
    }

    @Test
    void anAddressTheProviderDidNotVerifyMakesNoAccountUntilItsOwnerConfirmsIt() {
        // Pre-account takeover: the attacker's identity at a provider that verified no address, and
        // the victim's address typed on the choice page.
        AuthorizeFlowTest.Browser attacker = new AuthorizeFlowTest.Browser();
        signInThrough(attacker, "institution", "unverified-pre-1");
        Response choice = attacker.get("/account/federation/identity");
        Response mailed = press(attacker, choice.asString(), "create_account", "username", "pre-victim",
                "email", "pre-victim@victim.example");
        assertEquals(200, mailed.statusCode(), mailed.asString());
        assertTrue(mailed.asString().contains("id=\"confirmation_mailed\""), mailed.asString());
        assertFalse(attacker.cookies.containsKey("ziggurat_session"), "nobody is signed in");
        assertFalse(org.ziggurat.auth.IdentityDouble.addressTaken("pre-victim@victim.example"),
                "the address takes no account: its owner may still sign up");
        assertEquals(400, attacker.get("/account/federation/identity").statusCode(), "the identity is released");
        // The identity is linked to nothing: signing in through it again leads to the choice again.
        AuthorizeFlowTest.Browser again = new AuthorizeFlowTest.Browser();
        assertTrue(signInThrough(again, "institution", "unverified-pre-1").getHeader("Location")
                .endsWith("/account/federation/identity"));
        // GitHub's primary address that GitHub did not verify is no better.
        AuthorizeFlowTest.Browser octo = new AuthorizeFlowTest.Browser();
        signInThrough(octo, "github", "unverified-octo");
        Response fromGitHub = press(octo, octo.get("/account/federation/identity").asString(), "create_account",
                "username", "unverified-octo", "email", "unverified-octo@octo.example");
        assertEquals(200, fromGitHub.statusCode(), fromGitHub.asString());
        assertFalse(org.ziggurat.auth.IdentityDouble.addressTaken("unverified-octo@octo.example"));
        // An account's address typed there is answered as a free one is (the page tells nobody it has an
        // account); nothing waits for it.
        AuthorizeFlowTest.Browser prober = new AuthorizeFlowTest.Browser();
        signInThrough(prober, "github", "unverified-prober");
        Response probed = press(prober, prober.get("/account/federation/identity").asString(), "create_account",
                "username", "unverified-prober", "email", "bob@example.org");
        assertEquals(fromGitHub.statusCode(), probed.statusCode(), probed.asString());
        assertTrue(probed.asString().contains("id=\"confirmation_mailed\""), probed.asString());
        assertEquals(null, org.ziggurat.auth.IdentityDouble.confirmationToken("bob@example.org"));

        // The address's owner follows the link (it was theirs to confirm): only then is the account made.
        confirmByMail("pre-victim@victim.example");
        assertTrue(org.ziggurat.auth.IdentityDouble.addressTaken("pre-victim@victim.example"));
        AuthorizeFlowTest.Browser later = new AuthorizeFlowTest.Browser();
        Response signedIn = signInThrough(later, "institution", "unverified-pre-1");
        assertEquals(303, signedIn.statusCode());
        assertFalse(signedIn.getHeader("Location").endsWith("/account/federation/identity"), "linked now");
        // A link works once; a link that is no link makes nothing.
        AuthorizeFlowTest.Browser mailbox = new AuthorizeFlowTest.Browser();
        assertEquals(410, mailbox.post("/account/federation/confirmation", Map.of("token", "zet_no-such-link")).statusCode());
        assertEquals(410, mailbox.get("/account/federation/confirmation").statusCode());
        assertEquals(410, mailbox.get("/account/federation/confirmation?token=zet_no-such-link").statusCode());
        // A link whose provider is gone (or is another issuer now) makes nothing.
        org.ziggurat.auth.IdentityDouble.PENDING.put("zet_gone-provider", new io.vertx.core.json.JsonObject()
                .put("username", "orphan").put("email", "orphan@victim.example").put("identity", new io.vertx.core.json.JsonObject()
                        .put("provider", "removed-provider").put("subject", "s").put("issuer", "https://removed.example")));
        Response gone = mailbox.get("/account/federation/confirmation?token=zet_gone-provider");
        assertEquals(410, gone.statusCode());
        assertTrue(gone.asString().contains("id=\"provider_changed\""), gone.asString());
        assertEquals(410, mailbox.post("/account/federation/confirmation", Map.of("token", "zet_gone-provider")).statusCode());
        assertFalse(org.ziggurat.auth.IdentityDouble.addressTaken("orphan@victim.example"));
    }

    @Test
    void eachProviderHasItsOwnRedirectUriAndTheSharedOneServesOnlyAttemptsBegunBefore() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        // GitHub's answers carry no iss: its own redirect URI is what tells them from another's.
        Response toGitHub = press(browser, browser.get("/account").asString(), "provider_github");
        assertEquals("http://localhost:8080/api/account/federation/callback/github",
                query(providerUrl(toGitHub)).get("redirect_uri"));
        String gitHubAnswer = atProvider(toGitHub, "gh-own-uri");
        assertTrue(gitHubAnswer.startsWith("http://localhost:8080/api/account/federation/callback/github?"), gitHubAnswer);
        Map<String, String> answer = hiddenFields(browser.get(relative(gitHubAnswer)).asString());
        assertEquals(400, browser.post(callbackOf("institution"), answer).statusCode(), "at another provider's: no attempt");
        assertEquals(303, browser.post(callbackOf("github"), answer).statusCode(), "at its own: it goes on");

        // An attempt begun before each provider had its own redirect URI (as it was sent then: the
        // shared one, and no redirect URI of its own recorded) still finishes there.
        Response toInstitution = press(browser, browser.get("/account").asString(), "provider_institution");
        String shared = "http://localhost:8080/api/account/federation/callback";
        String oldRequest = providerUrl(toInstitution).replace(AuthorizeFlowTest.enc(shared + "/institution"),
                AuthorizeFlowTest.enc(shared));
        pool.preparedQuery("UPDATE federation_attempt SET redirect_uri = NULL WHERE redirect_uri = $1 AND expires_at > now()")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(shared + "/institution")).await().atMost(Duration.ofSeconds(10));
        Response atOld = given().redirects().follow(false).urlEncodingEnabled(false).get(oldRequest + "&user=begun-before");
        assertTrue(atOld.getHeader("Location").startsWith(shared + "?"), atOld.getHeader("Location"));
        Response page = browser.get(relative(atOld.getHeader("Location")));
        assertEquals("/account/federation/callback", continueAction(page.asString()));
        Map<String, String> oldAnswer = hiddenFields(page.asString());
        assertEquals(400, browser.post(callbackOf("institution"), oldAnswer).statusCode(), "not at a URI it was not sent");
        Response finished = browser.post("/account/federation/callback", oldAnswer);
        assertEquals(303, finished.statusCode(), finished.asString());
        assertTrue(finished.getHeader("Location").endsWith("/account/federation/identity"));
    }

    @Test
    void anIdTokenForSeveralAudiencesMustNameThisClientAsItsAuthorizedParty() {
        AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
        Response noAzp = back(browser, atProvider(press(browser, browser.get("/account").asString(), "provider_institution"),
                "azp-1", "tamper", "aud"));
        assertEquals(401, noAzp.statusCode(), "two audiences and no azp: " + noAzp.asString());
        Response otherAzp = back(browser, atProvider(press(browser, browser.get("/account").asString(), "provider_institution"),
                "azp-2", "tamper", "azp"));
        assertEquals(401, otherAzp.statusCode(), "another client's azp: " + otherAzp.asString());
        assertEquals(303, back(browser, atProvider(press(browser, browser.get("/account").asString(), "provider_institution"),
                "azp-3")).statusCode(), "this client's token alone goes on");
    }

    @Test
    void theSecurityLogCannotBeForgedThroughTheCallback() {
        java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                lines.add(record instanceof org.jboss.logmanager.ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger security = java.util.logging.Logger.getLogger("org.ziggurat.auth.security");
        security.addHandler(capture);
        try {
            AuthorizeFlowTest.Browser browser = new AuthorizeFlowTest.Browser();
            String forged = "x\nevent=login_succeeded method=password person_id=101 \"";
            // A provider's answer whose iss and error the sender wrote.
            Map<String, String> request = query(providerUrl(press(browser, browser.get("/account").asString(),
                    "provider_institution")));
            assertEquals(401, browser.post(callbackOf("institution"), Map.of("state", request.get("state"),
                    "iss", forged, "code", "c")).statusCode());
            request = query(providerUrl(press(browser, browser.get("/account").asString(), "provider_institution")));
            String issuer = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getValue("ziggurat.auth.federation.providers.institution.issuer", String.class);
            assertEquals(401, browser.post(callbackOf("institution"), Map.of("state", request.get("state"), "iss", issuer,
                    "error", "access_denied" + forged)).statusCode());
            request = query(providerUrl(press(browser, browser.get("/account").asString(), "provider_github")));
            assertEquals(401, browser.post(callbackOf("github"), Map.of("state", request.get("state"),
                    "error", forged)).statusCode());
        } finally {
            security.removeHandler(capture);
        }
        List<String> refused = lines.stream().filter(line -> line.contains("event=upstream_refused")).toList();
        assertEquals(3, refused.size(), String.join("\n---\n", lines));
        for (String line : lines) {
            assertFalse(line.contains("\n") || line.contains("\r"), "one event, one line: " + line);
            assertFalse(line.contains("event=login_succeeded method=password"), "no event of the sender's: " + line);
        }
        assertTrue(refused.get(0).contains("reason=issuer_mismatch"), refused.get(0));
        assertTrue(refused.get(1).contains("reason=provider_error provider_error=access_denied"), refused.get(1));
        assertTrue(refused.get(2).contains("reason=provider_error"), refused.get(2));
    }

    @Test
    void assuranceIsOnlyWhatTheProviderOfTheCurrentSignInAssertedAsItsOperatorAllows() throws Exception {
        // Alice links an identity at the institution (which asserts REFEDS values and another authority's).
        AuthorizeFlowTest.Browser alice = new AuthorizeFlowTest.Browser();
        assertEquals(303, press(alice, alice.get("/account").asString(), "sign_in", "login", "alice", "password",
                "alice password 1").statusCode());
        Response linked = back(alice, atProvider(press(alice, alice.get("/account").asString(), "link_institution"),
                "alice-assured"));
        assertEquals(303, linked.statusCode(), linked.asString());

        // Through the institution: what it asserted now, as far as its operator lets it.
        App app = researchApp();
        AuthorizeFlowTest.Browser viaInstitution = new AuthorizeFlowTest.Browser();
        Response login = viaInstitution.get(authorizeUrl(app, "s-assured-1", "n-assured-1"));
        Response back = back(viaInstitution, atProvider(press(viaInstitution, login.asString(), "provider_institution"),
                "alice-assured"));
        assertEquals(303, back.statusCode(), back.asString());
        Map<String, String> code = OpenIdConnectTest.authorize(viaInstitution, relative(back.getHeader("Location")));
        Map<String, Object> tokens = OpenIdConnectTest.exchange(app, code.get("code"));
        IDTokenClaimsSet claims = OpenIdConnectTest.validator(app, JWSAlgorithm.RS256)
                .validate(JWTParser.parse((String) tokens.get("id_token")), new Nonce("n-assured-1"));
        assertEquals(List.of("https://refeds.org/assurance", UpstreamDouble.RAF_MEDIUM), claims.getClaim("eduperson_assurance"));
        OAuthTestSupport.introspect((String) tokens.get("access_token")).statusCode(200)
                .body("eduperson_assurance", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(UpstreamDouble.OTHER_AUTHORITY)))
                .body("eduperson_assurance", org.hamcrest.Matchers.hasItem(UpstreamDouble.RAF_MEDIUM));

        // With her password: the institution asserted nothing of this sign-in, and nothing is said for it.
        AuthorizeFlowTest.Browser withPassword = new AuthorizeFlowTest.Browser();
        Map<String, String> passwordCode = OpenIdConnectTest.authorize(withPassword, authorizeUrl(app, "s-assured-2", "n-assured-2"));
        Map<String, Object> passwordTokens = OpenIdConnectTest.exchange(app, passwordCode.get("code"));
        IDTokenClaimsSet passwordClaims = OpenIdConnectTest.validator(app, JWSAlgorithm.RS256)
                .validate(JWTParser.parse((String) passwordTokens.get("id_token")), new Nonce("n-assured-2"));
        assertNull(passwordClaims.getClaim("eduperson_assurance"), "a linked provider's old word is not the platform's");
        OAuthTestSupport.introspect((String) passwordTokens.get("access_token")).statusCode(200)
                .body("eduperson_assurance", org.hamcrest.Matchers.nullValue());
        given().auth().oauth2((String) passwordTokens.get("access_token")).get("/oauth/userinfo").then().statusCode(200)
                .body("eduperson_assurance", org.hamcrest.Matchers.nullValue());
    }
}
