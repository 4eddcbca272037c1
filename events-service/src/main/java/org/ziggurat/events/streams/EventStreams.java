package org.ziggurat.events.streams;

import org.ziggurat.events.data.EventService;
import org.ziggurat.events.data.EventViews;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.jboss.resteasy.reactive.RestMulti;
import org.ziggurat.directory.client.Namespace;
import org.ziggurat.events.EventsConfig;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.token.Caller;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A repository's event stream as server-sent events: what came after a given id, then each new
 * event as any replica writes it ({@link EventStreamHub}), comments that keep proxies from
 * cutting an idle stream, and a last event when the reader's rights go.
 */
@ApplicationScoped
public class EventStreams {

    private static final int STREAM_BATCH = 100;

    private final EventService events;
    private final EventStreamHub hub;
    private final EventsConfig config;
    private final ObjectMapper mapper;

    EventStreams(EventService events, EventStreamHub hub, EventsConfig config, ObjectMapper mapper) {
        this.events = events;
        this.hub = hub;
        this.config = config;
        this.mapper = mapper;
    }

    /**
     * The stream of {@code repo} in the namespace, for a caller whose rights were settled when it
     * opened ({@link StreamRights}); {@code resumeAfter}: the last event id the reader has, or null
     * for only what comes next.
     */
    public Multi<OutboundSseEvent> open(Namespace ns, String repo, Long resumeAfter, Caller caller, PublicUrls urls, Sse sse) {
        Uni<StreamStart> start = (resumeAfter != null ? Uni.createFrom().item(resumeAfter)
                : events.newestId(ns.name(), repo)).map(after -> new StreamStart(ns, after));
        return RestMulti.fromUniResponse(start, begin -> {
            AtomicLong last = new AtomicLong(begin.after());
            EventViews.Place place = new EventViews.Place(begin.namespace().name(), repo, urls);
            String key = begin.namespace().name() + "/" + repo;
            Multi<Long> ticks = Multi.createBy().merging().streams(
                    Multi.createFrom().item(0L),
                    hub.notifications().filter(key::equals).map(k -> 0L),
                    Multi.createFrom().ticks().every(config.streamHeartbeat()).map(t -> 0L));
            Multi<OutboundSseEvent> appended = ticks.onOverflow().drop()
                    .onItem().transformToMultiAndConcatenate(tick -> Multi.createBy().repeating()
                            .uni(() -> events.after(place.namespace(), repo, last.get(), STREAM_BATCH)
                                    .invoke(rows -> rows.forEach(r -> last.set(Math.max(last.get(), r.id())))))
                            .whilst(rows -> rows.size() == STREAM_BATCH)
                            .onItem().transformToIterable(rows -> rows))
                    .map(row -> sse.newEventBuilder().id(Long.toString(row.id())).name("data_event")
                            .data(json(EventViews.event(row, place, null))).build());
            // A comment at once, so that the response starts (through proxies that wait for the
            // first bytes, the gateway among them), and on every heartbeat, so that idle streams
            // are not cut by proxies' read timeouts. Clients ignore comments.
            Multi<OutboundSseEvent> comments = Multi.createBy().merging().streams(
                    Multi.createFrom().item(0L), Multi.createFrom().ticks().every(config.streamHeartbeat()))
                    .onOverflow().drop()
                    .map(t -> sse.newEventBuilder().comment(t == 0L ? "stream open" : "keep-alive").build());
            // The rights that opened the stream are checked again while it stays open: once the
            // caller may no longer read the namespace, a last event says why, and the stream ends.
            OutboundSseEvent lost = sse.newEventBuilder().name(STREAM_CLOSED).data(json(new StreamClosed("access_removed",
                    "You may no longer read this namespace."))).build();
            Multi<OutboundSseEvent> rightsLost = Multi.createFrom().ticks().every(config.streamRightsRecheck())
                    .onOverflow().drop()
                    .onItem().transformToUniAndConcatenate(t -> events.readable(begin.namespace().name(), caller).map(ok -> false)
                            .onFailure(ProblemException.class).recoverWithItem(true)
                            // The directory away for a moment is no reason to end a stream.
                            .onFailure().recoverWithItem(false))
                    .filter(gone -> gone).map(gone -> lost);
            // Only the lost rights complete the merged streams (the others tick for ever; a client
            // that leaves cancels): their event is held back by select(), then sent last.
            return Multi.createBy().merging().streams(comments, appended, rightsLost)
                    .select().first(event -> event != lost)
                    .onCompletion().continueWith(lost);
        });
    }

    static final String STREAM_CLOSED = "stream_closed";

    /** The last event of a stream that its caller may no longer read. */
    @RegisterForReflection
    public record StreamClosed(String reason, String detail) {
    }

    /** One line of JSON: plain SSE, no per-event content type. */
    private String json(Object event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private record StreamStart(Namespace namespace, long after) {
    }
}
