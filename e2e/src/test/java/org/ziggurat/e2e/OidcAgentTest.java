package org.ziggurat.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.as;

/**
 * oidc-agent (the OS's package), the token agent of research infrastructures' command lines: it
 * registers itself (RFC 7591) with a person's admin-scoped token, gets tokens through the password
 * flow and through the device flow (approved in Chromium), and {@code oidc-token} prints an access
 * token that calls the API through the gateway; once that token has expired, the agent refreshes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcAgentTest {

    static final String AGENT = Stack.osProgram("ZIGGURAT_OIDC_AGENT", List.of("/usr/bin/oidc-agent"),
            "oidc-agent (apt-get install oidc-agent-cli)");
    static final Path BIN = Path.of(AGENT).getParent();
    static final Pattern USER_CODE = Pattern.compile("enter the code: ([A-Z]{4}-[A-Z]{4})");

    Path home;
    Path socket;
    Path log;
    Process agent;

    @BeforeAll
    void startTheAgent() throws Exception {
        home = Path.of(System.getProperty("user.dir"), "target", "oidc-agent-home");
        deleteRecursively(home);
        Files.createDirectories(home);
        // A UNIX socket's path holds at most 107 bytes: a checkout's own path could be longer.
        socket = Files.createTempDirectory("oidc-agent").resolve("agent.sock");
        // The stack first: its start empties the logs' directory.
        log = Stack.get().logsDirectory().resolve("oidc-agent.log");
        ProcessBuilder builder = new ProcessBuilder(AGENT, "--console", "--log-stderr", "--socket-path=" + socket)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("HOME", home.toString());
        agent = builder.start();
        try {
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .failFast("oidc-agent exited", () -> !agent.isAlive())
                    .until(() -> Files.exists(socket));
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError("oidc-agent did not start:\n" + Stack.tail(log, 30), e);
        }
    }

    @AfterAll
    void stopTheAgent() throws IOException {
        if (agent != null) {
            agent.destroy();
            Stack.awaitExit(agent);
        }
        if (socket != null) {
            deleteRecursively(socket.getParent());
        }
    }

    /** One of the agent's commands, as a person runs it in a shell that knows the agent. */
    ProcessBuilder command(String program, String... arguments) {
        List<String> line = new ArrayList<>();
        line.add(BIN.resolve(program).toString());
        line.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        builder.environment().put("OIDC_SOCK", socket.toString());
        return builder;
    }

    record Ran(int exit, String output) {
    }

    Ran run(String program, String... arguments) throws Exception {
        Process process = command(program, arguments).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), program + " did not finish");
        return new Ran(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    /**
     * oidc-gen's options for a new account of this issuer, registered with the person's admin token.
     * The account's short name goes into the client's name ("oidc-agent:NAME-HOST"), so it is not
     * the platform's name, which only operators give an application.
     */
    List<String> generate(String account, Platform.Person who, String... flow) {
        List<String> options = new ArrayList<>(List.of(account, "--issuer=" + Platform.api(),
                "--access-token=" + Platform.accessToken(who, "admin"), "--scope=openid offline_access user",
                "--pw-cmd=echo account-file-password", "--prompt=none", "--confirm-default"));
        options.addAll(List.of(flow));
        return options;
    }

    String token(String account, String... options) throws Exception {
        List<String> arguments = new ArrayList<>(List.of(options));
        arguments.add(account);
        Ran ran = run("oidc-token", arguments.toArray(String[]::new));
        assertEquals(0, ran.exit(), "oidc-token failed: " + ran.output() + agentLog());
        String token = ran.output().trim();
        assertTrue(token.startsWith("zat_"), "an access token of this server: " + ran.output());
        return token;
    }

    @Test
    void theAgentRegistersGetsTokensByPasswordAndRefreshesThem() throws Exception {
        Platform.Person ada = Platform.signUp("agent-user");
        String account = "lab-pw-" + Stack.random(6).toLowerCase();
        Ran generated = run("oidc-gen", generate(account, ada, "--flow=password", "--op-username=" + ada.username(),
                "--op-password=" + ada.password()).toArray(String[]::new));
        assertEquals(0, generated.exit(), "oidc-gen failed: " + generated.output() + agentLog());
        // Registered as the person's application: confidential, without its private-use redirect URI.
        as(Platform.accessToken(ada, "admin")).get("/applications").then().statusCode(200)
                .body("name", hasItem("oidc-agent:" + account + "-" + hostname()));

        String first = token(account);
        as(first).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));

        // The access token's time passes; the gateway refuses it once its short cache lets it go.
        assertTrue(Stack.get().sql("UPDATE auth.token SET expires_at = now() - interval '1 second' "
                + "WHERE person_id = ? AND kind = 'a' AND 'offline_access' = ANY (scopes)", ada.id()) > 0);
        await().atMost(Duration.ofSeconds(15)).until(() -> Platform.offContract().header("Authorization", "Bearer " + first)
                .get("/user").statusCode() == 401);
        // The agent refreshes: a new access token, which the API takes.
        String second = token(account, "--force-new");
        assertNotEquals(first, second);
        as(second).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));
    }

    /**
     * RFC 8707 with the research world's CLI: {@code oidc-token --aud} asks for a token for one
     * resource (oidc-agent 4 sends it as {@code audience}, newer ones as {@code resource}; both are
     * taken), and that token is refused by the platform's API, which is another resource.
     */
    @Test
    void theAgentAsksForATokenForOneResourceWhichAnotherRefuses() throws Exception {
        Platform.Person bo = Platform.signUp("agent-aud");
        String account = "lab-aud-" + Stack.random(6).toLowerCase();
        Ran generated = run("oidc-gen", generate(account, bo, "--flow=password", "--op-username=" + bo.username(),
                "--op-password=" + bo.password()).toArray(String[]::new));
        assertEquals(0, generated.exit(), "oidc-gen failed: " + generated.output() + agentLog());

        String forStorage = token(account, "--aud=" + ResourceServerTokensTest.STORAGE);
        Platform.offContract().header("Authorization", "Bearer " + forStorage).get("/user").then().statusCode(401)
                .body("detail", org.hamcrest.Matchers.containsString("another resource"));
        String forPlatform = token(account);
        assertNotEquals(forStorage, forPlatform);
        as(forPlatform).get("/user").then().statusCode(200).body("username", equalTo(bo.username()));
    }

    @Test
    void theAgentGetsTokensThroughTheDeviceFlowApprovedInTheBrowser() throws Exception {
        Platform.Person ada = Platform.signUp("agent-device");
        String account = "lab-device-" + Stack.random(6).toLowerCase();
        Process generating = command("oidc-gen", generate(account, ada, "--flow=device").toArray(String[]::new)).start();
        generating.getOutputStream().close();
        StringBuffer output = new StringBuffer();
        Thread reader = new Thread(() -> {
            try {
                byte[] buffer = new byte[4096];
                for (int n; (n = generating.getInputStream().read(buffer)) > 0; ) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException ended) {
                // the process went away
            }
        });
        reader.start();
        try {
            String userCode = await().atMost(Duration.ofSeconds(30)).until(() -> {
                Matcher m = USER_CODE.matcher(output);
                return m.find() ? m.group(1) : null;
            }, code -> code != null);
            assertTrue(output.toString().contains(Platform.api() + "/oauth/device"), "the verification address: " + output);
            approveInTheBrowser(ada, userCode);
            assertTrue(generating.waitFor(90, TimeUnit.SECONDS), "oidc-gen is still polling: " + output + agentLog());
            reader.join(5_000);
            assertEquals(0, generating.exitValue(), "oidc-gen failed: " + output + agentLog());
        } finally {
            generating.destroy();
        }
        as(token(account)).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));
    }

    /** The person opens the verification address on another device, signs in, types the code and approves. */
    static void approveInTheBrowser(Platform.Person person, String userCode) {
        WebDriver driver = BrowserTest.browser();
        try {
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
            driver.get(Platform.api() + "/oauth/device");
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("login"))).sendKeys(person.username());
            driver.findElement(By.id("password")).sendKeys(person.password());
            driver.findElement(By.id("sign_in")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("user_code"))).sendKeys(userCode);
            driver.findElement(By.id("continue")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("shown_code")));
            assertEquals(userCode, driver.findElement(By.id("shown_code")).getText());
            assertTrue(driver.getPageSource().contains("keep this access while you are away"),
                    "the page says that offline_access outlives the session");
            driver.findElement(By.id("approve")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("device_done")));
        } finally {
            driver.quit();
        }
    }

    /** oidc-gen names its client after the account and the machine. */
    static String hostname() throws IOException {
        return new String(new ProcessBuilder("hostname").start().getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    String agentLog() {
        return "\noidc-agent's log:\n" + Stack.tail(log, 30);
    }

    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var walk = Files.walk(path)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
