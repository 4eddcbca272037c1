package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.apache.commons.codec.binary.Base32;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.directory.factors.TotpRules;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * Second factors through the internal API, on the real database: enrolment active only after a
 * first code, a code good once, recovery codes good once each, throttled guessing, removal, and
 * what /user and the password check say of it.
 */
@QuarkusTest
class SecondFactorsTest {

    private static final String ADDRESS = "203.0.113.40";

    static byte[] enrol(Person person) {
        String secret = asService("auth-service").post("/internal/people/" + person.id() + "/factors/totp")
                .then().statusCode(201).body("digits", equalTo(6)).body("period", equalTo(30))
                .extract().path("secret");
        return new Base32().decode(secret);
    }

    static String code(byte[] key, int stepsFromNow) {
        return TotpRules.codeAt(key, TotpRules.step(Instant.now()) + stepsFromNow);
    }

    static ValidatableResponse confirm(Person person, String code) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("person_id", person.id(), "code", code, "client_address", ADDRESS))
                .post("/internal/people/" + person.id() + "/factors/totp/confirmation").then();
    }

    static ValidatableResponse verify(Person person, String code, String address) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("person_id", person.id(), "code", code, "client_address", address))
                .post("/internal/second-factors/verify").then();
    }

    static ValidatableResponse passwordCheck(Person person) {
        return asService("auth-service").contentType("application/json")
                .body(Map.of("login", person.username(), "password", "correct horse battery", "client_address", ADDRESS))
                .post("/internal/passwords/verify").then().statusCode(200);
    }

    @Test
    void aKeyCountsOnlyAfterItsFirstCode() {
        Person person = signUp("totp-enrol");
        byte[] key = enrol(person);
        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then().statusCode(200)
                .body("totp", equalTo("pending")).body("two_factor_authentication", is(false));
        passwordCheck(person).body("second_factor", is(false));
        as(person, "user").get("/user").then().body("two_factor_authentication", is(false));
        // Not yet a factor: nothing to check a code against.
        verify(person, code(key, 0), ADDRESS).statusCode(401);

        confirm(person, "000000".equals(code(key, 0)) ? "111111" : "000000").statusCode(422)
                .body("errors[0].field", equalTo("code"));
        List<String> codes = confirm(person, code(key, 0)).statusCode(200).extract().path("recovery_codes");
        assertEquals(10, codes.size());
        confirm(person, code(key, 1)).statusCode(409);

        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then().statusCode(200)
                .body("totp", equalTo("enabled")).body("two_factor_authentication", is(true))
                .body("recovery_codes_left", equalTo(10)).body("events[0].kind", equalTo("totp_enabled"))
                .body("events[0].client_address", equalTo(ADDRESS));
        passwordCheck(person).body("second_factor", is(true));
        as(person, "user").get("/user").then().body("two_factor_authentication", is(true));
        // A second key while one is set up: remove it first.
        asService("auth-service").post("/internal/people/" + person.id() + "/factors/totp").then().statusCode(409);
    }

    @Test
    void aCodeIsAcceptedOnceOnly() {
        Person person = signUp("totp-replay");
        byte[] key = enrol(person);
        confirm(person, code(key, -1)).statusCode(200);
        // The confirmation used its step: the same code again is a replay.
        verify(person, code(key, -1), ADDRESS).statusCode(401);
        verify(person, code(key, 0), ADDRESS).statusCode(200).body("method", equalTo("otp"))
                .body("recovery_codes_left", equalTo(10));
        verify(person, code(key, 0), ADDRESS).statusCode(401);
        verify(person, code(key, 1), ADDRESS).statusCode(200);
    }

    @Test
    void aRecoveryCodeIsGoodOnceAndSaysHowManyAreLeft() {
        Person person = signUp("recovery");
        byte[] key = enrol(person);
        List<String> codes = confirm(person, code(key, 0)).statusCode(200).extract().path("recovery_codes");
        verify(person, codes.get(3).toUpperCase().replace("-", " "), ADDRESS).statusCode(200)
                .body("method", equalTo("recovery")).body("recovery_codes_left", equalTo(9));
        verify(person, codes.get(3), ADDRESS).statusCode(401);
        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then()
                .body("recovery_codes_left", equalTo(9)).body("events[0].kind", equalTo("recovery_code_used"));

        List<String> fresh = asService("auth-service").post("/internal/people/" + person.id() + "/recovery-codes")
                .then().statusCode(200).body("recovery_codes", hasSize(10)).extract().path("recovery_codes");
        verify(person, codes.get(4), ADDRESS).statusCode(401);
        verify(person, fresh.get(0), ADDRESS).statusCode(200).body("recovery_codes_left", equalTo(9));
    }

    @Test
    void guessingIsThrottledPerAccountAndAddress() {
        Person person = signUp("totp-guess");
        byte[] key = enrol(person);
        confirm(person, code(key, 0)).statusCode(200);
        for (int i = 0; i < 3; i++) { // the test profile's account-throttle limit
            verify(person, "abcde-fghjk", "203.0.113.41").statusCode(401);
        }
        verify(person, code(key, 1), "203.0.113.41").statusCode(429).header("Retry-After", org.hamcrest.Matchers.notNullValue());
        // Another address is not blocked by this one's guesses.
        verify(person, code(key, 1), "203.0.113.42").statusCode(200);
    }

    @Test
    void removingTheFactorTurnsItOffAndVoidsTheCodes() {
        Person person = signUp("totp-remove");
        byte[] key = enrol(person);
        List<String> codes = confirm(person, code(key, 0)).statusCode(200).extract().path("recovery_codes");
        asService("auth-service").delete("/internal/people/" + person.id() + "/factors/totp?client_address=" + ADDRESS)
                .then().statusCode(204);
        asService("auth-service").delete("/internal/people/" + person.id() + "/factors/totp").then().statusCode(404);
        asService("auth-service").get("/internal/people/" + person.id() + "/factors").then()
                .body("totp", equalTo("none")).body("two_factor_authentication", is(false))
                .body("recovery_codes_left", equalTo(0)).body("totp_confirmed_at", nullValue())
                .body("events[0].kind", equalTo("totp_removed"));
        verify(person, codes.get(0), ADDRESS).statusCode(401);
        asService("auth-service").post("/internal/people/" + person.id() + "/recovery-codes").then().statusCode(409);
        passwordCheck(person).body("second_factor", is(false));
    }

    @Test
    void onlyServicesMayCallAndUnknownPeopleAreNotFound() {
        Person person = signUp("totp-caller");
        given().post("/internal/people/" + person.id() + "/factors/totp").then().statusCode(401);
        as(person, "user", "admin").post("/internal/people/" + person.id() + "/factors/totp").then().statusCode(403);
        as(person, "user", "admin").get("/internal/people/" + person.id() + "/factors").then().statusCode(403);
        asService("auth-service").post("/internal/people/999999999/factors/totp").then().statusCode(404);
        asService("auth-service").contentType("application/json").body(Map.of("person_id", person.id()))
                .post("/internal/second-factors/verify").then().statusCode(422);
    }
}
