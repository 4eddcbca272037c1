package org.ziggurat.platform.rest.http;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.PlatformTestKeys;

import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bodies past a route's limit are refused before they are read (here 2 KiB, and 64 KiB for the
 * stand-in of an import route): the answer comes while the client has sent only its headers.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestKeys.class)
class BodyLimitsTest {

    /** Headers only, claiming a body: the answer's status line, which must not wait for the body. */
    static String headersOnly(String path, String headers) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
            return new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
        }
    }

    @Test
    void aDeclaredLengthPastTheLimitIs413BeforeTheBody() throws Exception {
        String answer = headersOnly("/probe/echo", "Content-Length: 20000000\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        // Anonymous or not, whatever the resource would say about it: it is never read.
        given().contentType("application/json").body("{\"name\":\"" + "x".repeat(3000) + "\"}").post("/probe/echo")
                .then().statusCode(413).contentType("application/problem+json").body("status", equalTo(413));
        given().contentType("application/json").body("{\"name\":\"small\"}").post("/probe/echo").then().statusCode(200);
        // A client that writes all of a large body before it reads still gets the answer.
        byte[] large = new byte[8 * 1024 * 1024];
        java.util.Arrays.fill(large, (byte) 'x');
        given().contentType("application/octet-stream").body(large).post("/probe/echo").then().statusCode(413);
    }

    @Test
    void aChunkedBodyOnASmallRouteIs411() throws Exception {
        String answer = headersOnly("/probe/echo", "Transfer-Encoding: chunked\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 411"), answer);
    }

    @Test
    void importRoutesTakeTheirOwnLimit() throws Exception {
        byte[] body = new byte[40_000];
        given().contentType("application/octet-stream").body(body).post("/probe/large").then().statusCode(200)
                .body("length", equalTo(40_000));
        String answer = headersOnly("/probe/large", "Content-Length: 70000\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
    }

    @Test
    void aLengthThatIsNoNumberIs400() throws Exception {
        String answer = headersOnly("/probe/echo", "Content-Length: lots\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
    }
}
