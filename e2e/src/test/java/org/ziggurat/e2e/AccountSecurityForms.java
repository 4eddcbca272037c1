package org.ziggurat.e2e;

import com.eatthepath.otp.TimeBasedOneTimePasswordGenerator;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.apache.commons.codec.binary.Base32;

import javax.crypto.spec.SecretKeySpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The account page's forms posted as a browser posts them (cookies, CSRF fields), without one:
 * for journeys that need a person with a second factor but test something else. The pages in a
 * browser are {@link SecondFactorBrowserTest}'s.
 */
final class AccountSecurityForms {

    private static final Pattern HIDDEN = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">");
    private static final Pattern KEY = Pattern.compile("id=\"totp_key\">([A-Z2-7 ]+)<");

    private final Map<String, String> cookies = new HashMap<>();

    private AccountSecurityForms() {
    }

    /** The code an authenticator app shows for the key at a 30-second step. */
    static String code(byte[] key, long step) throws Exception {
        int code = new TimeBasedOneTimePasswordGenerator().generateOneTimePassword(new SecretKeySpec(key, "HmacSHA1"),
                Instant.ofEpochSecond(step * 30));
        return String.format("%06d", code);
    }

    static long step() {
        return Instant.now().getEpochSecond() / 30;
    }

    /** Signs the person in on the account page, as another browser would: its cookies, and whether it still is signed in. */
    static AccountSecurityForms signedIn(Platform.Person person) {
        AccountSecurityForms browser = new AccountSecurityForms();
        Map<String, String> form = hidden(browser.get().asString());
        form.put("login", person.username());
        form.put("password", person.password());
        assertEquals(303, browser.post(form).statusCode(), "signed in");
        return browser;
    }

    /** Whether this browser's sign-in still holds: the account page shows the account, not the sign-in form. */
    boolean stillSignedIn() {
        return !get().asString().contains("id=\"sign_in\"");
    }

    /** Signs the person in on the account page and sets up an authenticator app: its key. */
    static byte[] enrolAuthenticator(Platform.Person person) throws Exception {
        AccountSecurityForms browser = new AccountSecurityForms();
        Response login = browser.get();
        Map<String, String> form = hidden(login.asString());
        form.put("login", person.username());
        form.put("password", person.password());
        assertEquals(303, browser.post(form).statusCode(), "signed in");
        form = hidden(browser.get().asString());
        form.put("action", "totp_start");
        Response enrolment = browser.post(form);
        Matcher key = KEY.matcher(enrolment.asString());
        assertTrue(key.find(), enrolment.asString());
        byte[] secret = new Base32().decode(key.group(1).replace(" ", ""));
        form = hidden(enrolment.asString());
        form.put("code", code(secret, step()));
        Response codes = browser.post(form);
        assertTrue(codes.asString().contains("id=\"recovery_codes\""), codes.asString());
        return secret;
    }

    private Response get() {
        Response r = RestAssured.given().baseUri(Platform.api()).redirects().follow(false).cookies(cookies)
                .get("/account/security");
        remember(r);
        return r;
    }

    private Response post(Map<String, String> form) {
        Response r = RestAssured.given().baseUri(Platform.api()).redirects().follow(false).cookies(cookies)
                .contentType("application/x-www-form-urlencoded").formParams(form).post("/account/security");
        remember(r);
        return r;
    }

    private void remember(Response r) {
        r.getDetailedCookies().asList().forEach(c -> {
            if (c.getMaxAge() == 0 || c.getValue().isEmpty()) {
                cookies.remove(c.getName());
            } else {
                cookies.put(c.getName(), c.getValue());
            }
        });
    }

    private static Map<String, String> hidden(String html) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = HIDDEN.matcher(html);
        while (m.find()) {
            fields.put(m.group(1), m.group(2).replace("&amp;", "&"));
        }
        return fields;
    }
}
