package org.ziggurat.platform.rest.openapi;

/**
 * Names of the shared parts of every service's OpenAPI document ({@link ApiContract}), for
 * operations to refer to: {@code @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)}.
 */
public final class ApiErrors {

    public static final String BAD_REQUEST = "BadRequest";
    public static final String UNAUTHORIZED = "Unauthorized";
    public static final String FORBIDDEN = "Forbidden";
    public static final String NOT_FOUND = "NotFound";
    public static final String CONFLICT = "Conflict";
    public static final String PAYLOAD_TOO_LARGE = "PayloadTooLarge";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    public static final String UNPROCESSABLE = "UnprocessableContent";

    public static final String OAUTH_BAD_REQUEST = "OAuthBadRequest";
    public static final String OAUTH_UNAUTHORIZED = "OAuthUnauthorized";
    public static final String OAUTH_FORBIDDEN = "OAuthForbidden";
    public static final String OAUTH_SLOW_DOWN = "OAuthSlowDown";

    public static final String PROBLEM_SCHEMA = "Problem";
    public static final String FIELD_ERROR_SCHEMA = "FieldError";
    public static final String OAUTH_ERROR_SCHEMA = "OAuthError";

    /** The paging header of every list, under components/headers. */
    public static final String LINK_HEADER = "Link";

    private ApiErrors() {
    }
}
