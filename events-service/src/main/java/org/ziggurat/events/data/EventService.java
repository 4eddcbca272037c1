package org.ziggurat.events.data;

import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.directory.client.Namespace;
import org.ziggurat.directory.client.NamespaceDirectory;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;

import java.time.OffsetDateTime;
import java.util.List;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The data events of a repository: who may read and record them, recording one at most once per
 * {@code Idempotency-Key}, and reading them back as their views. The resource only maps HTTP to
 * these calls; the repository only speaks SQL.
 */
@ApplicationScoped
public class EventService {

    /** Recording an event creates content: the write scope. */

    private final NamespaceDirectory namespaces;
    private final EventRepository events;

    EventService(NamespaceDirectory namespaces, EventRepository events) {
        this.namespaces = namespaces;
        this.events = events;
    }

    /** What a request asks to record; {@code idempotencyKey} and {@code requestHash} are both null or both set. */
    public record Append(String namespace, String repository, EventInput input, String idempotencyKey,
            byte[] requestHash) {
    }

    /** The namespace the caller may read, or a 404 as if it did not exist. */
    public Uni<Namespace> readable(String namespace, Caller caller) {
        return namespaces.lookup(namespace, caller).invoke(ns -> NamespaceAccess.requireRead(namespace, ns.read(), ns.withheld()));
    }

    /** The namespace, if the caller has {@code scope} and write rights in it (NamespaceAccess). */
    private Uni<Namespace> writable(String namespace, Caller caller, String scope) {
        caller.requireUserWithScope(scope);
        return readable(namespace, caller).invoke(ns -> NamespaceAccess.requireWrite(ns.name(), ns.write(), ns.withheld()));
    }

    /**
     * Records the event. A first write answers with what it stored; a replay of its key and body
     * reads the first answer's event again; the same key with another body is refused.
     */
    public Uni<EventViews.Event> append(Append append, Caller caller, PublicUrls urls) {
        return writable(append.namespace(), caller, ScopeNames.WRITE).chain(ns -> {
            EventViews.Place place = new EventViews.Place(ns.name(), append.repository(), urls);
            EventRepository.NewEvent event = new EventRepository.NewEvent(ns.name(), append.repository(), append.input(),
                    caller.requireUser(), caller.username().orElse(""), caller.clientId().orElse(null),
                    append.idempotencyKey(), append.requestHash());
            return append.idempotencyKey() == null ? events.write(event).map(w -> view(w, place))
                    : writeOnce(event, place);
        });
    }

    private Uni<EventViews.Event> writeOnce(EventRepository.NewEvent event, EventViews.Place place) {
        return previous(event, false).chain(id -> id != null ? single(place, id)
                : events.write(event).map(w -> view(w, place))
                        // Two requests with one key at the same time: the other one won; answer with its event.
                        .onFailure(e -> e instanceof PgException pg && "23505".equals(pg.getSqlState()))
                        .recoverWithUni(() -> previous(event, true).chain(first -> single(place, first))));
    }

    /** The id of the event first recorded under this key, if any; {@code mustExist} after a lost race. */
    private Uni<Long> previous(EventRepository.NewEvent event, boolean mustExist) {
        return events.byIdempotencyKey(event.namespace(), event.repository(), event.creatorId(), event.idempotencyKey())
                .map(previous -> IdempotentReplays.replayOf(previous, event.requestHash(), mustExist));
    }

    /** A page of events, newest first, and whether another page follows. */
    public record Page(List<EventViews.Event> events, boolean more) {
    }

    /** Newest first; one row more is read than shown, to tell whether another page follows. */
    public Uni<Page> page(Namespace ns, String repository, String kind, OffsetDateTime since, int limit, long offset,
            PublicUrls urls) {
        EventViews.Place place = new EventViews.Place(ns.name(), repository, urls);
        return events.page(ns.name(), repository, kind, since, limit + 1, offset)
                .map(rows -> new Page(rows.stream().limit(limit).map(r -> EventViews.event(r, place, null)).toList(),
                        rows.size() > limit));
    }

    /** One event with its commits, or 404. */
    public Uni<EventViews.Event> single(EventViews.Place place, long id) {
        return stored(place.namespace(), place.repository(), id)
                .chain(row -> events.commits(row.id()).map(commits -> EventViews.event(row, place, commits)));
    }

    /** The commits of one event, or 404. */
    public Uni<List<EventViews.Commit>> commits(String namespace, String repository, long id) {
        return stored(namespace, repository, id).chain(row -> events.commits(row.id()))
                .map(rows -> rows.stream().map(EventViews::commit).toList());
    }

    /** The newest event's id, from which a stream without {@code Last-Event-ID} starts. */
    public Uni<Long> newestId(String namespace, String repository) {
        return events.newestId(namespace, repository);
    }

    /** Events after an id, oldest first, for streams. */
    public Uni<List<EventRepository.EventRow>> after(String namespace, String repository, long afterId, int limit) {
        return events.after(namespace, repository, afterId, limit);
    }

    private Uni<EventRepository.EventRow> stored(String namespace, String repository, long id) {
        return events.repositoryId(namespace, repository)
                .chain(repoId -> repoId == null ? Uni.createFrom().nullItem() : events.event(repoId, id))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such data event."));
    }

    private static EventViews.Event view(EventRepository.Written written, EventViews.Place place) {
        return EventViews.event(written.event(), place, written.commits());
    }
}
