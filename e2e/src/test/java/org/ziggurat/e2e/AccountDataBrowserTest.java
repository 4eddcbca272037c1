package org.ziggurat.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * A person takes their data out and leaves, in Chromium, against the whole platform: the file
 * the account page gives holds their part of every service; after the deletion every service
 * forgets or reserves what the rule says, the token and the password are dead, and the name stays taken.
 */
class AccountDataBrowserTest {

    private static long count(String sql, String value) throws Exception {
        var server = Stack.get().server;
        try (var c = java.sql.DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                var s = c.prepareStatement(sql)) {
            s.setString(1, value);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void aPersonDownloadsTheirDataThenDeletesTheirAccount() throws Exception {
        Platform.Person person = Platform.signUp("leaving");
        String name = person.username();
        String token = Platform.accessToken(person, "user", "write", "admin");
        as(token).contentType("application/json").body(Map.of("slug", "mine", "abbr", "MI", "title", "Mine"))
                .post("/" + name + "/vocab/schemes").then().statusCode(201);
        as(token).contentType("application/json").body(Map.of("note", "my notes"))
                .post("/" + name + "/repositories/notebook/data/events").then().statusCode(201);
        as(token).contentType("application/json").body(Map.of("name", "Leaving tool", "redirect_uris",
                List.of("http://127.0.0.1:9/callback"), "scopes", "user")).post("/applications").then().statusCode(201);
        String org = "org-" + name;
        as(token).contentType("application/json").body(Map.of("name", org)).post("/organizations").then().statusCode(201);

        Path downloads = Files.createTempDirectory("ziggurat-export");
        Path file = downloads.resolve("ziggurat-" + name + ".json");
        WebDriver driver = BrowserTest.browser(downloads);
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(Platform.api() + "/account");
            SecondFactorBrowserTest.signInWithPassword(driver, wait, person);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("export_password"))).sendKeys(person.password());
            driver.findElement(By.id("export_data")).click();
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(file) && Files.size(file) > 0);
            JsonNode export = new ObjectMapper().readTree(file.toFile());
            assertEquals("ziggurat-account-export/1", export.path("format").asText());
            assertEquals(name, export.path("directory").path("profile").path("username").asText());
            assertTrue(export.path("directory").path("memberships").toString().contains(org), export.toString());
            assertTrue(export.path("directory").path("security_log").toString().contains("sign_in"), export.toString());
            assertTrue(export.path("auth").path("applications").toString().contains("Leaving tool"), export.toString());
            assertTrue(export.path("auth").path("sessions").size() >= 1, export.toString());
            assertTrue(export.path("vocab").path("schemes").toString().contains("\"mine\""), export.toString());
            assertTrue(export.path("events").path("data_events").toString().contains("my notes"), export.toString());
            assertTrue(!export.toString().contains(person.password()) && !export.toString().contains("client_secret"),
                    "no secret is exported");

            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("delete_confirm"))).sendKeys(name);
            driver.findElement(By.id("delete_password")).sendKeys(person.password());
            driver.findElement(By.id("delete_account")).click();
            String gone = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("account_deleted"))).getText();
            assertTrue(gone.contains(name), gone);
            assertTrue(driver.findElement(By.id("organizations_deleted")).getText().contains(org));
            driver.get(Platform.api() + "/account");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("sign_in")));
        } finally {
            driver.quit();
        }

        // Every service forgets: the token (the gateway keeps an answer 2 s here), the password, the profile.
        Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> as(token).get("/user").then().extract().statusCode() == 401);
        Platform.anonymous().formParams(Map.of("grant_type", "password", "username", name, "password", person.password()))
                .post("/oauth/token").then().statusCode(400);
        Platform.anonymous().get("/people/" + name).then().statusCode(404);
        Platform.anonymous().get("/" + name + "/vocab/schemes/mine").then().statusCode(404);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                count("SELECT count(*) FROM directory.peer_delivery WHERE kind = 'erasure' AND username = ? AND done_at IS NOT NULL", name) == 3);
        assertEquals(0, count("SELECT count(*) FROM vocab.scheme WHERE namespace = ?", name));
        assertEquals(0, count("SELECT count(*) FROM events.repository WHERE namespace = ?", name));
        assertEquals(0, count("SELECT count(*) FROM auth.application WHERE name = 'Leaving tool' AND owner_id = "
                + person.id() + " AND ? IS NOT NULL", name));
        // The names stay taken: the person's and their organization's.
        Platform.anonymous().contentType("application/json").body(Map.of("username", name, "password", "another passphrase",
                "email", "again-" + name + "@example.org")).post("/people").then().statusCode(409);
        Platform.Person other = Platform.signUp("after");
        as(Platform.accessToken(other, "admin")).contentType("application/json").body(Map.of("name", org))
                .post("/organizations").then().statusCode(409);
        Awaitility.await().atMost(AccountMailTest.DELIVERY).until(() -> Stack.get().mail().to(AccountMailTest.address(person))
                .stream().anyMatch(m -> AccountMailTest.subject(m).equals("Your account was deleted")));
    }
}
