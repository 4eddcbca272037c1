package org.ziggurat.directory.mail;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.mail.internet.MimeMessage;
import org.apache.commons.codec.binary.Base32;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.directory.factors.TotpRules;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * The outbox with a real SMTP server (GreenMail): a change's mail is written with it and sent;
 * a mail server that is away loses nothing and, back, gets each mail once; replicas claiming at
 * once send each mail once.
 */
@QuarkusTest
class MailOutboxTest {

    private static final Duration DELIVERY = Duration.ofSeconds(20);

    @Inject
    Pool pool;

    @Inject
    MailWorker worker;

    /** The security notices the address got (not the sign-up's verification mail). */
    static List<MimeMessage> noticesTo(String address) {
        return mailTo(address).stream().filter(m -> {
            try {
                return m.getSubject().startsWith("Your account's security changed");
            } catch (jakarta.mail.MessagingException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    static List<MimeMessage> mailTo(String address) {
        return Arrays.stream(SmtpTestServer.server().getReceivedMessages()).filter(m -> {
            try {
                return Arrays.stream(m.getAllRecipients()).anyMatch(r -> r.toString().equalsIgnoreCase(address));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }

    static String body(MimeMessage message) throws Exception {
        return message.getContent().toString();
    }

    /** Sets up an authenticator app through the internal API, as the account page does. */
    static void enrolAuthenticator(Person person) {
        String secret = asService("auth-service").post("/internal/people/" + person.id() + "/factors/totp")
                .then().statusCode(201).extract().path("secret");
        byte[] key = new Base32().decode(secret);
        asService("auth-service").contentType("application/json")
                .body(Map.of("person_id", person.id(), "code", TotpRules.codeAt(key, TotpRules.step(Instant.now())),
                        "client_address", "198.51.100.7"))
                .post("/internal/people/" + person.id() + "/factors/totp/confirmation").then().statusCode(200);
    }

    @Test
    void aNewSecondFactorIsMailedToThePersonOnce() throws Exception {
        Person person = signUp("mail-notice");
        enrolAuthenticator(person);
        Awaitility.await().atMost(DELIVERY).until(() -> noticesTo(person.email()).size() == 1);
        MimeMessage mail = noticesTo(person.email()).get(0);
        assertEquals("Your account's security changed: an authenticator app was set up as a second factor for your account",
                mail.getSubject());
        String text = body(mail);
        assertTrue(text.contains("198.51.100.7"), text);
        assertTrue(text.contains("If it was not you"), text);
        assertTrue(text.contains("/account/security"), text);
        awaitSentOnce(person, "totp_enabled");
        assertEquals(1, noticesTo(person.email()).size(), "sent once");
    }

    @Test
    void aMailServerThatIsAwayLosesNothingAndGetsEachMailOnce() throws Exception {
        Person person = signUp("mail-away");
        SmtpTestServer.stopServer();
        try {
            enrolAuthenticator(person);
            // Tried, failed, kept with what went wrong, and tried again later.
            Awaitility.await().atMost(DELIVERY).until(() -> count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 "
                    + "AND kind = 'totp_enabled' AND sent_at IS NULL AND attempts >= 2 AND last_error IS NOT NULL",
                    person.id()) == 1);
        } finally {
            SmtpTestServer.startServer();
        }
        Awaitility.await().atMost(DELIVERY).until(() -> noticesTo(person.email()).size() == 1);
        awaitSentOnce(person, "totp_enabled");
        assertEquals(1, noticesTo(person.email()).size(), "once, after all the failed attempts");
    }

    /** Four claimers at once, as four replicas would be, and the worker's own rounds besides. */
    @Test
    void claimersAtOnceSendEachMailOnce() throws Exception {
        Person person = signUp("mail-race");
        List<String> recipients = IntStream.range(0, 40).mapToObj(i -> "race-" + i + "-" + person.username() + "@example.org")
                .toList();
        for (String recipient : recipients) {
            pool.preparedQuery("INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) VALUES ($1, 'test', $2, 'Race', 'x')")
                    .execute(Tuple.of(person.id(), recipient)).await().atMost(Duration.ofSeconds(10));
        }
        Uni.join().all(IntStream.range(0, 4).mapToObj(i -> worker.sendBatch()).toList())
                .andCollectFailures().await().atMost(Duration.ofSeconds(60));
        Awaitility.await().atMost(DELIVERY).until(() -> count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 "
                + "AND kind = 'test' AND sent_at IS NULL", person.id()) == 0);
        Map<String, Long> received = recipients.stream().collect(Collectors.toMap(r -> r, r -> (long) mailTo(r).size()));
        assertTrue(received.values().stream().allMatch(n -> n == 1), received.toString());
    }

    @Test
    void retriesWaitLongerEachTimeUpToTheLongest() {
        Duration first = Duration.ofSeconds(10);
        Duration longest = Duration.ofHours(1);
        assertEquals(Duration.ofSeconds(10), MailWorker.retryAfter(1, first, longest));
        assertEquals(Duration.ofSeconds(20), MailWorker.retryAfter(2, first, longest));
        assertEquals(Duration.ofSeconds(80), MailWorker.retryAfter(4, first, longest));
        assertEquals(longest, MailWorker.retryAfter(10, first, longest));
        assertEquals(longest, MailWorker.retryAfter(1_000, first, longest));
        assertEquals(first, MailWorker.retryAfter(0, first, longest));
    }

    /**
     * Until the person's one mail of this kind is recorded sent and none waits: no replica claims
     * it after that, so what the mail server got is then final.
     */
    void awaitSentOnce(Person person, String kind) {
        Awaitility.await().atMost(DELIVERY).until(() -> count("SELECT count(*) FROM mail_outbox WHERE person_id = $1 AND kind = '"
                + kind + "' AND sent_at IS NOT NULL", person.id()) == 1 && count("SELECT count(*) FROM mail_outbox "
                + "WHERE person_id = $1 AND kind = '" + kind + "' AND sent_at IS NULL", person.id()) == 0);
    }

    long count(String sql, long personId) {
        return pool.preparedQuery(sql).execute(Tuple.of(personId)).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong(0);
    }
}
