package org.ziggurat.vocab;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Strong ETags of JSON answers (a hash of the exact bytes sent), and 304 for a matching
 * {@code If-None-Match}: clients that poll a vocabulary pay for changes only.
 */
public final class Etags {

    private Etags() {
    }

    /** A JSON body as sent, with its ETag. */
    public record Rendered(byte[] body, String etag) {
    }

    public static Rendered render(ObjectMapper mapper, Object body) {
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return new Rendered(bytes, "\"" + hash(bytes) + "\"");
    }

    public static Response.ResponseBuilder json(ObjectMapper mapper, Object body, String ifNoneMatch,
            Response.ResponseBuilder ok) {
        return respond(render(mapper, body), ifNoneMatch, ok);
    }

    public static Response.ResponseBuilder respond(Rendered rendered, String ifNoneMatch, Response.ResponseBuilder ok) {
        String etag = rendered.etag();
        if (ifNoneMatch != null && (ifNoneMatch.trim().equals("*")
                || Arrays.stream(ifNoneMatch.split(",")).map(String::trim).map(t -> t.replaceFirst("^W/", ""))
                        .anyMatch(etag::equals))) {
            return Response.notModified().header("ETag", etag);
        }
        return ok.entity(rendered.body()).type("application/json").header("ETag", etag);
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 20);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
