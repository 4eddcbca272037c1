package org.ziggurat.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
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
 * Apache httpd with mod_auth_openidc, from the OS's packages, in front of a research portal's pages:
 * configured with the discovery document, a client id and secret and nothing else Ziggurat-specific
 * (the few lines of docs/developers.md, "Apache httpd with mod_auth_openidc"). Chromium opens a
 * protected page, signs in at Ziggurat, approves, and the page shows the claims the module
 * validated; the module's session holds on a second page; the module's logout signs the person
 * out of Ziggurat too (RP-initiated logout with the ID token).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApacheOpenIdcTest {

    static final String APACHE = Stack.osProgram("ZIGGURAT_APACHE", List.of("/usr/sbin/apache2", "/usr/sbin/httpd"),
            "Apache httpd (apt-get install apache2-bin libapache2-mod-auth-openidc)");
    static final Path MODULES = Path.of(System.getenv().getOrDefault("ZIGGURAT_APACHE_MODULES", "/usr/lib/apache2/modules"));

    Process apache;
    String portal;
    Path dir;

    /** The page the module protects: the claims it validated, as Apache's environment holds them. */
    static final String CLAIMS_PAGE = """
            <!DOCTYPE html><html><head><title>Portal</title></head><body>
            <p id="page"><!--#echo var="DOCUMENT_NAME" --></p>
            <p id="subject"><!--#echo var="OIDC_CLAIM_sub" --></p>
            <p id="issuer"><!--#echo var="OIDC_CLAIM_iss" --></p>
            <p id="username"><!--#echo var="OIDC_CLAIM_preferred_username" --></p>
            <p id="email"><!--#echo var="OIDC_CLAIM_email" --></p>
            <p id="remote_user"><!--#echo var="REMOTE_USER" --></p>
            </body></html>
            """;

    @BeforeAll
    void startApache() throws Exception {
        assertTrue(Files.exists(MODULES.resolve("mod_auth_openidc.so")), "mod_auth_openidc is missing in " + MODULES
                + " (apt-get install libapache2-mod-auth-openidc)");
        int port = Stack.freePort();
        portal = "http://127.0.0.1:" + port;
        Platform.Person operator = Platform.signUp("portal-operator");
        Map<String, Object> app = as(Platform.accessToken(operator, "admin")).contentType("application/json")
                .body(Map.of("name", "Research portal", "redirect_uris", List.of(portal + "/protected/redirect_uri"),
                        "post_logout_redirect_uris", List.of(portal + "/signed-out.html"), "scopes", "openid profile email"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");

        dir = Path.of(System.getProperty("user.dir"), "target", "apache");
        Files.createDirectories(dir.resolve("htdocs/protected"));
        Files.createDirectories(dir.resolve("run"));
        Files.writeString(dir.resolve("htdocs/protected/index.shtml"), CLAIMS_PAGE);
        Files.writeString(dir.resolve("htdocs/protected/second.shtml"), CLAIMS_PAGE);
        Files.writeString(dir.resolve("htdocs/signed-out.html"),
                "<!DOCTYPE html><html><body><p id=\"signed_out\">Signed out of the portal.</p></body></html>\n");
        Path log = Stack.get().logsDirectory().resolve("apache.log");
        Files.writeString(dir.resolve("httpd.conf"), """
                ServerRoot %1$s
                ServerName 127.0.0.1
                Listen 127.0.0.1:%2$d
                PidFile %1$s/run/httpd.pid
                DefaultRuntimeDir %1$s/run
                Mutex file:%1$s/run default
                ErrorLog %3$s
                LogLevel warn auth_openidc:info
                LoadModule mpm_event_module %4$s/mod_mpm_event.so
                LoadModule authn_core_module %4$s/mod_authn_core.so
                LoadModule authz_core_module %4$s/mod_authz_core.so
                LoadModule authz_user_module %4$s/mod_authz_user.so
                LoadModule mime_module %4$s/mod_mime.so
                LoadModule include_module %4$s/mod_include.so
                LoadModule dir_module %4$s/mod_dir.so
                LoadModule auth_openidc_module %4$s/mod_auth_openidc.so
                TypesConfig /dev/null
                DocumentRoot %1$s/htdocs
                DirectoryIndex index.shtml
                AddType text/html .shtml
                AddOutputFilter INCLUDES .shtml
                <Directory %1$s/htdocs>
                  Options +Includes
                  Require all granted
                </Directory>

                # As docs/developers.md has it: discovery, the application's id and secret, PKCE.
                OIDCProviderMetadataURL %5$s/.well-known/openid-configuration
                OIDCClientID %6$s
                OIDCClientSecret %7$s
                OIDCRedirectURI %8$s/protected/redirect_uri
                OIDCCryptoPassphrase %9$s
                OIDCScope "openid profile email"
                OIDCPKCEMethod S256
                <Location /protected>
                  AuthType openid-connect
                  Require valid-user
                </Location>
                """.formatted(dir, port, log, MODULES, Platform.api(), app.get("client_id"), app.get("client_secret"), portal,
                Stack.random(24)));
        apache = new ProcessBuilder(APACHE, "-f", dir.resolve("httpd.conf").toString(), "-DFOREGROUND")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Stack.awaitReady("Apache", apache, portal + "/signed-out.html", Duration.ofSeconds(30), () -> Files.readString(log));
    }

    @AfterAll
    void stopApache() throws InterruptedException {
        if (apache != null) {
            apache.destroy();
            Stack.awaitExit(apache);
        }
    }

    @Test
    void apacheSignsAPersonInShowsTheirClaimsAndSignsThemOut() throws Exception {
        Platform.Person ada = Platform.signUp("portal-user");
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(portal + "/protected/");
            BrowserTest.signInAndApprove(driver, ada);

            // Back at the portal: the claims the module took from the validated ID token and userinfo.
            BrowserTest.showsClaimsOf(driver, ada, this::apacheLog);
            assertEquals(ada.id() + "@" + Platform.api(), driver.findElement(By.id("remote_user")).getText(),
                    "Apache's user is the person, as the module names them (subject@issuer)");

            // The module's session holds: a second page, without a trip to Ziggurat.
            driver.get(portal + "/protected/second.shtml");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("subject")));
            assertEquals(portal + "/protected/second.shtml", driver.getCurrentUrl());
            assertEquals(Long.toString(ada.id()), driver.findElement(By.id("subject")).getText());

            // The module's logout: Ziggurat's end_session_endpoint with the ID token, back to the portal.
            driver.get(portal + "/protected/redirect_uri?logout=" + java.net.URLEncoder.encode(portal + "/signed-out.html",
                    java.nio.charset.StandardCharsets.UTF_8));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("signed_out")));
            assertTrue(driver.getCurrentUrl().startsWith(portal + "/signed-out.html"), driver.getCurrentUrl());
            // Signed out of Ziggurat too: the protected page asks for a sign-in at Ziggurat again,
            // and the access token of the ended session (openid without offline_access) is revoked.
            driver.get(portal + "/protected/");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login")));
            assertTrue(driver.getCurrentUrl().startsWith(Platform.api() + "/oauth/authorize?"), driver.getCurrentUrl());
            assertEquals(0, Stack.get().count("SELECT 1 FROM auth.token t JOIN auth.application a ON a.id = t.application_id "
                    + "WHERE t.person_id = ? AND t.revoked_at IS NULL AND t.expires_at > now()", ada.id()),
                    "the portal's tokens ended with the session");
        } finally {
            driver.quit();
        }
    }

    String apacheLog() {
        return Stack.tail(Stack.get().logsDirectory().resolve("apache.log"), 40);
    }
}
