package org.ziggurat.platform.problem;

/**
 * RFC 9470's refusal: the access token is good, but the sign-in behind it was not strong enough
 * for this resource. It is a 401 whose Bearer challenge says {@code insufficient_user_authentication}
 * and which class of sign-in would do ({@code acr_values}); the client then has the person sign in
 * again with the authorization request's {@code acr_values}, and calls with the new token.
 */
public class StepUpRequired extends ProblemException {

    private final String acrValues;

    public StepUpRequired(String detail, String acrValues) {
        super(401, "Insufficient User Authentication", detail);
        this.acrValues = acrValues;
    }

    public String acrValues() {
        return acrValues;
    }

    /** The WWW-Authenticate value (RFC 6750 §3, RFC 9470 §3): quotes and backslashes are not in our details. */
    public String challenge() {
        return "Bearer error=\"insufficient_user_authentication\", error_description=\""
                + detail().replace("\\", "").replace("\"", "'") + "\", acr_values=\"" + acrValues + "\"";
    }
}
