package org.ziggurat.e2e;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.SimpleValidationReportFormat;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.RestAssuredRequest;
import com.atlassian.oai.validator.restassured.RestAssuredResponse;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;

/**
 * Checks every exchange with the public API against the merged OpenAPI document that the gateway
 * serves ({@code /api/openapi}), with a well-kept validator: the request (its path, parameters,
 * body and credentials) and the answer (a status the operation documents, its headers and the
 * body's schema). An answer the document does not describe fails the test that got it.
 *
 * <p>{@link #exchanges()} checks both sides; {@link #answers()} only the answer, for requests that
 * are off the contract on purpose (bad input, a missing or spent token): what the API says back to
 * them must still be what the document promises. The counts go to
 * {@code target/openapi-validation.md} when the test JVM ends.
 */
final class ContractCheck implements Filter {

    private static final Map<String, AtomicInteger> CHECKED = new ConcurrentHashMap<>();
    private static final AtomicInteger TOTAL = new AtomicInteger();
    private static volatile String document;
    private static final ContractCheck EXCHANGES = new ContractCheck(false);
    private static final ContractCheck ANSWERS = new ContractCheck(true);
    /** For answers whose body was not read (a stream that never ends). */
    private static final ContractCheck ANSWERS_UNREAD = new ContractCheck(true, true);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ContractCheck::writeReport));
    }

    private final boolean answersOnly;
    private final boolean bodyUnread;
    private volatile OpenApiInteractionValidator validator;

    private ContractCheck(boolean answersOnly) {
        this(answersOnly, false);
    }

    private ContractCheck(boolean answersOnly, boolean bodyUnread) {
        this.answersOnly = answersOnly;
        this.bodyUnread = bodyUnread;
    }

    static ContractCheck exchanges() {
        return EXCHANGES;
    }

    static ContractCheck answers() {
        return ANSWERS;
    }

    /**
     * The merged document as the running gateways serve it. A gateway answers 503 "not ready" until
     * it has read every service's document whole; each replica reads them on its own, so this waits
     * until every one serves it, and a test that reads it through the balancer later meets none still waiting.
     */
    static synchronized String document() {
        if (document == null) {
            Stack stack = Stack.get();
            for (String gateway : Stack.instancesOf("gateway")) {
                await("the merged OpenAPI document at " + gateway).atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(200)).until(() -> {
                            int status = RestAssured.given().baseUri(stack.instanceUrl(gateway)).get("/api/openapi")
                                    .statusCode();
                            if (status != 200 && status != 503) {
                                throw new AssertionError(gateway + " answered " + status + " for the OpenAPI document");
                            }
                            return status == 200;
                        });
            }
            document = RestAssured.given().baseUri(stack.api).get("/openapi").then().statusCode(200)
                    .extract().asString();
        }
        return document;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
            FilterContext ctx) {
        Response response = ctx.next(request, responseSpec);
        String path = URI.create(request.getURI()).getPath();
        if (!path.startsWith("/api/") || path.equals("/api/openapi") || path.startsWith("/api/docs")) {
            return response; // the reference itself is not part of the API it describes
        }
        ValidationReport report = validator().validate(asSent(request), RestAssuredResponse.of(response));
        if (report.hasErrors()) {
            throw new AssertionError("The API answered outside its OpenAPI document: " + request.getMethod() + " "
                    + request.getURI() + " -> " + response.statusCode() + "\n"
                    + SimpleValidationReportFormat.getInstance().apply(report) + "\nbody: " + abbreviate(response.asString()));
        }
        counted(request.getMethod(), response.statusCode());
        return response;
    }

    /**
     * The request as the validator reads it. RestAssured keeps form parameters apart from the body,
     * and the validator's adapter reads only the body: a form is put back into the body it was sent as.
     */
    private static Request asSent(FilterableRequestSpecification request) {
        if (request.getBody() != null || request.getFormParams().isEmpty()) {
            return RestAssuredRequest.of(request);
        }
        URI uri = URI.create(request.getURI());
        SimpleRequest.Builder sent = new SimpleRequest.Builder(request.getMethod(), uri.getPath());
        request.getHeaders().forEach(h -> sent.withHeader(h.getName(), h.getValue()));
        if (request.getContentType() != null) {
            sent.withContentType(request.getContentType());
        }
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                String[] kv = pair.split("=", 2);
                sent.withQueryParam(decode(kv[0]), kv.length > 1 ? decode(kv[1]) : "");
            }
        }
        StringBuilder form = new StringBuilder();
        // A repeated parameter (resource, RFC 8707) arrives as a list of its values, whatever the map's type says.
        java.util.Map<String, ?> params = (java.util.Map<String, ?>) (java.util.Map<?, ?>) request.getFormParams();
        params.forEach((name, value) -> {
            for (Object one : value instanceof java.util.Collection<?> many ? many : java.util.List.of(value)) {
                form.append(form.length() == 0 ? "" : "&").append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(String.valueOf(one), StandardCharsets.UTF_8));
            }
        });
        return sent.withBody(form.toString()).build();
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private OpenApiInteractionValidator validator() {
        OpenApiInteractionValidator v = validator;
        if (v == null) {
            synchronized (this) {
                if (validator == null) {
                    LevelResolver.Builder levels = LevelResolver.create();
                    if (answersOnly) {
                        levels.withLevel("validation.request", ValidationReport.Level.IGNORE);
                    }
                    if (bodyUnread) {
                        levels.withLevel("validation.response.body.missing", ValidationReport.Level.IGNORE);
                    }
                    validator = OpenApiInteractionValidator.createForInlineApiSpecification(document())
                            .withLevelResolver(levels.build()).build();
                }
                v = validator;
            }
        }
        return v;
    }

    /**
     * What is wrong, against the document, with an answer that a test got without RestAssured
     * (the matrix's cells, the bad-input run): empty when it is described, or when its path is no
     * operation of the document (a hostile path that the gateway answers for no service).
     * {@code body} null: the body was not read (a stream); only the status and headers are checked.
     */
    static String answerProblems(String method, URI uri, Map<String, List<String>> requestHeaders, int status,
            Map<String, List<String>> responseHeaders, String body) {
        String path = uri.getRawPath();
        if (!path.startsWith("/api/")) {
            return "";
        }
        SimpleRequest.Builder request = new SimpleRequest.Builder(method, URLDecoder.decode(path.replace("+", "%2B"),
                StandardCharsets.UTF_8));
        requestHeaders.forEach((name, values) -> request.withHeader(name, values));
        SimpleResponse.Builder response = SimpleResponse.Builder.status(status);
        responseHeaders.forEach((name, values) -> {
            if (!name.startsWith(":")) {
                response.withHeader(name, values);
            }
        });
        if (body != null && !body.isEmpty()) {
            response.withBody(body);
        }
        ValidationReport report = (body == null ? ANSWERS_UNREAD : ANSWERS).validator().validate(request.build(), response.build());
        if (!report.hasErrors()) {
            counted(method, status);
            return "";
        }
        StringBuilder why = new StringBuilder(method + " " + abbreviate(path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()), 200) + " -> " + status + ":");
        report.getMessages().forEach(m -> why.append(" [").append(m.getKey()).append("] ").append(m.getMessage()));
        return why.toString();
    }

    private static void counted(String method, int status) {
        TOTAL.incrementAndGet();
        CHECKED.computeIfAbsent(method + " " + status, k -> new AtomicInteger()).incrementAndGet();
    }

    static int total() {
        return TOTAL.get();
    }

    private static String abbreviate(String body) {
        return abbreviate(body, 2000);
    }

    private static String abbreviate(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "…" : text;
    }

    private static void writeReport() {
        if (TOTAL.get() == 0) {
            return;
        }
        StringBuilder out = new StringBuilder("# Exchanges checked against the OpenAPI document\n\n")
                .append("Total: ").append(TOTAL.get()).append(" requests and answers, none outside the document.\n\n")
                .append("| Method and status | Exchanges |\n|---|---|\n");
        new TreeMap<>(CHECKED).forEach((k, n) -> out.append("| ").append(k).append(" | ").append(n.get()).append(" |\n"));
        try {
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "openapi-validation.md"), out);
        } catch (IOException e) {
            System.err.println("openapi-validation.md not written: " + e);
        }
    }
}
