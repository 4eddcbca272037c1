package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/**
 * The device authorization grant (RFC 8628) as a command-line tool lives it, through the gateway:
 * it asks for codes, polls (authorization_pending, then slow_down when too fast), the person
 * approves in Chromium on the verification page, and the tool gets its tokens; a person who denies;
 * a code that expires.
 */
class DeviceFlowJourneyTest {

    static final String GRANT = "urn:ietf:params:oauth:grant-type:device_code";

    static String tool(Platform.Person developer) {
        return as(Platform.accessToken(developer, "admin")).contentType("application/json")
                .body(Map.of("name", "Lab CLI", "redirect_uris", List.of("urn:ietf:wg:oauth:2.0:oob"), "scopes", "openid user",
                        "confidential", false))
                .post("/applications").then().statusCode(201).extract().path("client_id");
    }

    static Map<String, Object> start(String clientId) {
        return anonymous().contentType("application/x-www-form-urlencoded").formParam("client_id", clientId)
                .formParam("scope", "openid user").post("/oauth/device_authorization").then().statusCode(200)
                .extract().jsonPath().getMap("$");
    }

    static io.restassured.response.ValidatableResponse poll(String clientId, Map<String, Object> started) {
        return Platform.offContract().contentType("application/x-www-form-urlencoded").accept("application/json")
                .formParam("grant_type", GRANT).formParam("client_id", clientId)
                .formParam("device_code", (String) started.get("device_code")).post("/oauth/token").then();
    }

    /** The person opens the verification address (with the code in it), signs in and answers. */
    static void answerInTheBrowser(Map<String, Object> started, Platform.Person person, String button) {
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get((String) started.get("verification_uri_complete"));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login"))).sendKeys(person.username());
            driver.findElement(By.id("password")).sendKeys(person.password());
            driver.findElement(By.id("sign_in")).click();
            // The code of the address is filled in; the person sends it (a GET looks nothing up).
            WebElement code = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("user_code")));
            assertEquals(started.get("user_code"), code.getAttribute("value"), "the code of the address is filled in");
            driver.findElement(By.id("continue")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("shown_code")));
            assertEquals(started.get("user_code"), driver.findElement(By.id("shown_code")).getText(),
                    "the page shows the code, to compare with the device's");
            driver.findElement(By.id(button)).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id(button.equals("approve") ? "device_done"
                    : "device_refused")));
        } finally {
            driver.quit();
        }
    }

    @Test
    void aToolIsAuthorizedFromAnotherDevicesBrowser() throws Exception {
        String clientId = tool(Platform.signUp("cli-developer"));
        Platform.Person ada = Platform.signUp("cli-user");
        Map<String, Object> started = start(clientId);
        assertEquals(Platform.api() + "/oauth/device", started.get("verification_uri"));

        poll(clientId, started).statusCode(400).body("error", equalTo("authorization_pending"));
        poll(clientId, started).statusCode(400).body("error", equalTo("slow_down"));

        answerInTheBrowser(started, ada, "approve");

        // As a well-behaved device: poll until the tokens come, waiting the interval between polls,
        // 5 s longer after each slow_down (the one above included).
        long interval = ((Number) started.get("interval")).longValue() + 5;
        long deadline = System.currentTimeMillis() + 90_000;
        Map<String, Object> tokens = null;
        while (tokens == null) {
            assertTrue(System.currentTimeMillis() < deadline, "no tokens within 90 s of the approval");
            Thread.sleep(interval * 1000);
            var answer = poll(clientId, started).extract();
            if (answer.statusCode() == 200) {
                tokens = answer.jsonPath().getMap("$");
            } else if ("slow_down".equals(answer.path("error"))) {
                interval += 5;
            } else {
                assertEquals("authorization_pending", answer.path("error"), answer.asString());
            }
        }
        assertTrue(tokens.containsKey("id_token") && tokens.containsKey("refresh_token"), tokens.keySet().toString());
        as((String) tokens.get("access_token")).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));
    }

    @Test
    void aPersonWhoDeniesGivesTheToolNothing() {
        String clientId = tool(Platform.signUp("cli-developer"));
        Map<String, Object> started = start(clientId);
        answerInTheBrowser(started, Platform.signUp("cli-refuser"), "deny");
        poll(clientId, started).statusCode(400).body("error", equalTo("access_denied"));
    }

    @Test
    void anUnansweredCodeExpires() throws Exception {
        String clientId = tool(Platform.signUp("cli-developer"));
        Map<String, Object> started = start(clientId);
        // Ten minutes pass.
        assertEquals(1, Stack.get().sql("UPDATE auth.device_authorization SET expires_at = now() - interval '1 second' "
                + "WHERE application_id = (SELECT id FROM auth.application WHERE client_id = ?)", clientId));
        poll(clientId, started).statusCode(400).body("error", equalTo("expired_token"));
    }
}
