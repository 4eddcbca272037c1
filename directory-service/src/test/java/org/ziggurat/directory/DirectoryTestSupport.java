package org.ziggurat.directory;

import io.restassured.specification.RequestSpecification;
import org.ziggurat.platform.testing.TestTokens;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;

/** Creating people through the real API, and calling as them. */
public final class DirectoryTestSupport {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN = Long.toString(System.nanoTime() % 100_000, 36);

    private DirectoryTestSupport() {
    }

    /** A name no other test uses, valid as a username or organization name. */
    public static String uniqueName(String stem) {
        return stem + "-" + RUN + "-" + SEQUENCE.incrementAndGet();
    }

    public record Person(long id, String username, String email) {
    }

    public static Person signUp(String stem) {
        String username = uniqueName(stem);
        String email = username + "@example.org";
        int id = given().contentType("application/json")
                .body(Map.of("username", username, "password", "correct horse battery", "email", email,
                        "display_name", "Dr. " + stem))
                .post("/people").then().statusCode(201).extract().path("id");
        return new Person(id, username, email);
    }

    /** A request made as this person through an OAuth client holding these scopes. */
    public static RequestSpecification as(Person person, String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(person.id(), person.username(), scopes));
    }

    public static RequestSpecification asService(String service) {
        return given().header("X-Platform-Token", TestTokens.service(service));
    }

    /**
     * {@code n} requests sent at once (each thread waits for all the others before it sends its
     * own): the answers' statuses, in the order of {@code i}.
     */
    public static java.util.List<Integer> atOnce(int n, java.util.function.IntFunction<io.restassured.response.Response> request)
            throws Exception {
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(n);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(n);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                answers.add(callers.submit(() -> {
                    together.await();
                    return request.apply(index).statusCode();
                }));
            }
            java.util.List<Integer> statuses = new java.util.ArrayList<>();
            for (var answer : answers) {
                statuses.add(answer.get());
            }
            return statuses;
        } finally {
            callers.shutdownNow();
        }
    }
}
