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

    /** Anyone's view: no email. */
    @RegisterForReflection
    public record Person(String username, long id, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url, String htmlUrl, String type,
            Instant createdAt) {
    }

    /**
     * The authenticated user's own view: {@code email} is the public address (null when none);
     * with the {@code user} scope also the private fields.
     */
    @RegisterForReflection
    public record CurrentUser(String username, long id, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url, String htmlUrl, String type,
            Instant createdAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, description = "The public address; null when none is set.") String email,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean twoFactorAuthentication,
            @JsonInclude(JsonInclude.Include.NON_NULL) String privateEmail) {
    }

    public static Person person(PersonRow row, PublicUrls urls) {
        return new Person(row.username(), row.id(), row.displayName(), avatarUrl(row, urls),
                urls.api("/people/" + row.username()), urls.web("/" + row.username()), "User", row.createdAt());
    }

    public static CurrentUser currentUser(PersonRow row, PublicUrls urls, boolean withPrivate) {
        return new CurrentUser(row.username(), row.id(), row.displayName(), avatarUrl(row, urls),
                urls.api("/people/" + row.username()), urls.web("/" + row.username()), "User", row.createdAt(),
                row.publicEmail(), withPrivate ? row.twoFactorEnabled() : null, withPrivate ? row.email() : null);
    }

    /** Versioned by the last change, so caches pick up a new upload. */
    public static String avatarUrl(PersonRow row, PublicUrls urls) {
        return urls.api("/people/" + row.username() + "/avatar?s=50&v=" + row.updatedAt().toEpochMilli());
    }
}
