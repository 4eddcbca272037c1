package org.ziggurat.e2e;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

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

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ContractCheck::writeReport));
    }

    private final boolean answersOnly;
    private volatile OpenApiInteractionValidator validator;

    private ContractCheck(boolean answersOnly) {
        this.answersOnly = answersOnly;
    }

    static ContractCheck exchanges() {
        return EXCHANGES;
    }

    static ContractCheck answers() {
        return ANSWERS;
    }

    /** The merged document as the running gateway serves it. */
    static synchronized String document() {
        if (document == null) {
            document = RestAssured.given().baseUri(Stack.get().api).get("/openapi").then().statusCode(200)
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
        TOTAL.incrementAndGet();
        CHECKED.computeIfAbsent(request.getMethod() + " " + response.statusCode(), k -> new AtomicInteger())
                .incrementAndGet();
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
        request.getFormParams().forEach((name, value) -> form.append(form.length() == 0 ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8)));
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
                    validator = OpenApiInteractionValidator.createForInlineApiSpecification(document())
                            .withLevelResolver(levels.build()).build();
                }
                v = validator;
            }
        }
        return v;
    }

    static int total() {
        return TOTAL.get();
    }

    private static String abbreviate(String body) {
        return body.length() > 2000 ? body.substring(0, 2000) + "…" : body;
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
