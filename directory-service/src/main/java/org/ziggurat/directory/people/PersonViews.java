package org.ziggurat.directory.people;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Instant;

/** The spec's Person, as each audience sees it. */
public final class PersonViews {

    private PersonViews() {
    }

    /** Anyone's view: no email; of the {@link ProfileDetails} only the website, which is public. */
    @RegisterForReflection
    public record Person(String username, long id, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url, String htmlUrl, String type,
            Instant createdAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, format = "uri",
                    description = WEBSITE) String website) {
    }

    static final String WEBSITE = "The person's web page or blog (an http or https URL); null when none is set.";

    /**
     * The authenticated user's own view: {@code email} is the public address (null when none);
     * with the {@code user} scope also the private fields, among them the private
     * {@link ProfileDetails} (each left out when not set).
     */
    @RegisterForReflection
    public record CurrentUser(String username, long id, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url, String htmlUrl, String type,
            Instant createdAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, description = "The public address; null when none is set.") String email,
            @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, format = "uri", description = WEBSITE) String website,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean twoFactorAuthentication,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateEmail,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "Given name(s) or first name(s); with the user scope, when set.") String givenName,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "Surname(s) or last name(s); with the user scope, when set.") String familyName,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "A BCP 47 language tag (en-GB); with the user scope, when set.") String locale,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "A time zone of the tz database (Europe/Paris); with the user scope, when set.") String zoneinfo) {
    }

    public static Person person(PersonRow row, PublicUrls urls) {
        return new Person(row.username(), row.id(), row.displayName(), avatarUrl(row, urls),
                urls.api("/people/" + row.username()), urls.web("/" + row.username()), "User", row.createdAt(),
                row.details().website());
    }

    public static CurrentUser currentUser(PersonRow row, PublicUrls urls, boolean withPrivate) {
        ProfileDetails own = withPrivate ? row.details() : ProfileDetails.NONE;
        return new CurrentUser(row.username(), row.id(), row.displayName(), avatarUrl(row, urls),
                urls.api("/people/" + row.username()), urls.web("/" + row.username()), "User", row.createdAt(),
                row.publicEmail(), row.details().website(), withPrivate ? row.twoFactorEnabled() : null,
                withPrivate ? row.email() : null, own.givenName(), own.familyName(), own.locale(), own.zoneinfo());
    }

    /** Versioned by the last change, so caches pick up a new upload. */
    public static String avatarUrl(PersonRow row, PublicUrls urls) {
        return urls.api("/people/" + row.username() + "/avatar?s=50&v=" + row.updatedAt().toEpochMilli());
    }
}
