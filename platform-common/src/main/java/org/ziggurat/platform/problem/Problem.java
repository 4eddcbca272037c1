package org.ziggurat.platform.problem;

import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * An RFC 9457 problem document: the error body of every endpoint outside {@code /oauth/**}.
 * {@code errors} lists the fields at fault when the problem is a validation failure.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@RegisterForReflection
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        String instance,
        @JsonProperty("request_id") String requestId,
        List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** One field at fault: a JSON pointer-like path ({@code labels[2].body}) and what is wrong with it. */
    @RegisterForReflection
    public record FieldError(String field, String message) {
    }
}
