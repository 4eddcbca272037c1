package org.ziggurat.events.data;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Instant;
import java.util.List;

/** The data event record (docs/decisions.md, "Data events"). */
public final class EventViews {

    private EventViews() {
    }

    @RegisterForReflection
    @Schema(name = "DataEventCreator")
    public record Creator(String username, long id, String url, String htmlUrl, String avatarUrl) {
    }

    @RegisterForReflection
    @Schema(name = "DataEventCommit")
    public record Commit(long id, String type, EventInput.Identifier identifier, int revision, JsonNode payload,
            JsonNode changeset, Instant createdAt) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    @Schema(name = "DataEvent")
    public record Event(long id, String kind, String note, String url, String htmlUrl, String repositoryUrl,
            Creator creator, @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, description = "The application that recorded it; null without one.") String clientId, int commitsCount,
            List<Commit> commits, Instant createdAt) {
    }

    /** Where a repository's events live, publicly. */
    @RegisterForReflection
    public record Place(String namespace, String repository, PublicUrls urls) {
        public String repositoryUrl() {
            return urls.api("/" + namespace + "/repositories/" + repository);
        }

        String eventUrl(long id) {
            return repositoryUrl() + "/data/events/" + id;
        }
    }

    public static Event event(EventRepository.EventRow row, Place place, List<EventRepository.CommitRow> commits) {
        PublicUrls urls = place.urls();
        Creator creator = new Creator(row.creatorUsername(), row.creatorId(), urls.api("/people/" + row.creatorUsername()),
                urls.web("/" + row.creatorUsername()), urls.api("/people/" + row.creatorUsername() + "/avatar"));
        return new Event(row.id(), row.kind(), row.note(), place.eventUrl(row.id()),
                urls.web("/" + place.namespace() + "/" + place.repository() + "/data/events/" + row.id()),
                place.repositoryUrl(), creator, row.clientId(), row.commitsCount(),
                commits == null ? null : commits.stream().map(EventViews::commit).toList(), row.createdAt().toInstant());
    }

    public static Commit commit(EventRepository.CommitRow c) {
        return new Commit(c.id(), c.type(), c.identifier(), c.revision(), c.payload(), c.changeset(), c.createdAt().toInstant());
    }
}
