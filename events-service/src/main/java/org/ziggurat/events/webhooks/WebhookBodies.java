package org.ziggurat.events.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonFormat;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.events.audit.AuditViews;
import org.ziggurat.events.data.EventViews;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.net.URI;

/**
 * A delivery's body: a CloudEvents 1.0 event in structured mode (JSON), written by the CloudEvents
 * SDK. {@code source} is the repository's API URL, {@code id} the data event's id (unique in it),
 * {@code type} {@code org.ziggurat.data.} and the kind, {@code subject} the event's path in the
 * repository, {@code time} when it was recorded; {@code data} the event as the API lists it (its
 * commits are a read away, at its {@code url}: a body stays small whatever the event holds).
 */
@ApplicationScoped
public class WebhookBodies {

    public static final String CONTENT_TYPE = "application/cloudevents+json; charset=utf-8";
    public static final String DATA_EVENT_TYPE = "org.ziggurat.data.";

    private final ObjectMapper mapper;
    private final JsonFormat format = new JsonFormat();

    WebhookBodies(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The delivery's body: its data event's, or its audit event's (AuditViews). */
    public byte[] body(WebhookDeliveryRepository.Claimed delivery) {
        return delivery.audit() != null ? format.serialize(AuditViews.cloudEvent(delivery.audit())) : dataEvent(delivery);
    }

    byte[] dataEvent(WebhookDeliveryRepository.Claimed delivery) {
        EventViews.Place place = new EventViews.Place(delivery.namespace(), delivery.repository(),
                PublicUrls.ofApiBase(delivery.apiBase()));
        EventViews.Event view = EventViews.event(delivery.event(), place, null);
        CloudEvent event = CloudEventBuilder.v1()
                .withId(String.valueOf(view.id()))
                .withSource(URI.create(place.repositoryUrl()))
                .withType(DATA_EVENT_TYPE + view.kind())
                .withSubject("data/events/" + view.id())
                .withTime(delivery.event().createdAt())
                .withData("application/json", json(view))
                .build();
        return format.serialize(event);
    }

    private byte[] json(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a webhook's data", e);
        }
    }
}
