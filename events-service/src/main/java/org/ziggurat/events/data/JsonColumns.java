package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.UncheckedIOException;

/** A jsonb column read as text, as the database holds it (its key order and numbers): what a read answers. */
@ApplicationScoped
class JsonColumns {

    private final ObjectMapper mapper;

    JsonColumns(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    JsonNode read(String json) {
        try {
            return json == null ? JsonNodeFactory.instance.nullNode() : mapper.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
