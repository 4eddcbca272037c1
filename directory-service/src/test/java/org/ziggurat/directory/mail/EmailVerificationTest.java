package org.ziggurat.directory.mail;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.mail.internet.MimeMessage;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * Proving a sign-in address: sign-up mails a link (with the sign-up's transaction); its token
 * proves the address once, for 24 hours, and only while it is still the person's; what
 * auth-service tells relying parties (email_verified) follows.
 */
@QuarkusTest
class EmailVerificationTest {

    private static final Pattern LINK = Pattern.compile("(http\\S+/account/email/verification\\?token=(\\S+))");

    @Inject
    Pool pool;

    /** The token of the verification mail the person got. */
    static String tokenMailedTo(Person person) throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> MailOutboxTest.mailTo(person.email()).size() == 1);
        MimeMessage mail = MailOutboxTest.mailTo(person.email()).get(0);
        assertEquals("Confirm your e-mail address", mail.getSubject());
        String body = MailOutboxTest.body(mail);
        Matcher link = LINK.matcher(body);
        assertTrue(link.find(), body);
        assertTrue(link.group(1).startsWith("http://localhost:8080/api/account/email/verification?token="), link.group(1));
        return URLDecoder.decode(link.group(2), StandardCharsets.UTF_8);
    }

    static io.restassured.response.ValidatableResponse verify(String token) {
        return asService("auth-service").contentType("application/json").body(Map.of("token", token))
                .post("/internal/email-verifications").then();
    }

    static io.restassured.response.ValidatableResponse claims(Person person) {
        return asService("auth-service").get("/internal/people/" + person.id() + "/claims").then().statusCode(200);
    }

    @Test
    void theMailedLinkProvesTheAddressOnce() throws Exception {
        Person person = signUp("verify-once");
        claims(person).body("email_verified", is(false));
        String token = tokenMailedTo(person);
        verify(token).statusCode(200).body("person_id", equalTo((int) person.id()))
                .body("username", equalTo(person.username())).body("email", equalTo(person.email()));
        claims(person).body("email_verified", is(true));
        verify(token).statusCode(410).body("title", equalTo("Link Gone"));
    }

    @Test
    void aLinkThatExpiredOrWasNeverMadeProvesNothing() throws Exception {
        Person person = signUp("verify-expired");
        String token = tokenMailedTo(person);
        pool.preparedQuery("UPDATE email_verification SET expires_at = now() - interval '1 second' WHERE person_id = $1")
                .execute(Tuple.of(person.id())).await().atMost(Duration.ofSeconds(10));
        verify(token).statusCode(410);
        verify("A".repeat(43)).statusCode(410);
        verify("not a token").statusCode(410);
        asService("auth-service").contentType("application/json").body("{}").post("/internal/email-verifications")
                .then().statusCode(410);
        claims(person).body("email_verified", is(false));
    }

    @Test
    void aLinkForAnAddressThePersonNoLongerHasProvesNothing() throws Exception {
        Person person = signUp("verify-moved");
        String token = tokenMailedTo(person);
        pool.preparedQuery("UPDATE person SET email = $2 WHERE id = $1")
                .execute(Tuple.of(person.id(), "elsewhere-" + person.email())).await().atMost(Duration.ofSeconds(10));
        verify(token).statusCode(410);
        claims(person).body("email_verified", is(false));
    }

    @Test
    void onlyServicesMayProveAddresses() throws Exception {
        Person person = signUp("verify-who");
        String token = tokenMailedTo(person);
        io.restassured.RestAssured.given().contentType("application/json").body(Map.of("token", token))
                .post("/internal/email-verifications").then().statusCode(401);
        claims(person).body("email_verified", is(false));
    }
}
