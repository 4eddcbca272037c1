package org.ziggurat.platform.rest.sql;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/** The pooled probe's read and write, through Hibernate Reactive with Panache instead of SQL. */
@Path("/probe/panache")
@Produces(MediaType.APPLICATION_JSON)
public class PanacheProbeResource {

    @GET
    public Uni<Map<String, Object>> read() {
        return Panache.withSession(() -> PooledNote.count()).map(notes -> Map.of("notes", notes));
    }

    /** One transaction of two statements: the note, and a count that must see it. */
    @POST
    public Uni<Map<String, Object>> write(String body) {
        return Panache.withTransaction(() -> {
            PooledNote note = new PooledNote();
            note.body = body;
            return note.persistAndFlush().chain(() -> PooledNote.count("id <= ?1", note.id))
                    .map(counted -> {
                        if (counted < 1) {
                            throw new IllegalStateException("the transaction's own insert is not visible to it");
                        }
                        return Map.<String, Object>of("id", note.id);
                    });
        });
    }

    /** Read, change, written at commit: the entity's state across the statements of one transaction. */
    @PUT
    @Path("/{id}")
    public Uni<Map<String, Object>> append(@PathParam("id") long id, String suffix) {
        return Panache.withTransaction(() -> PooledNote.<PooledNote>findById(id)
                .invoke(note -> note.body = note.body + suffix)
                .map(note -> Map.<String, Object>of("id", note.id, "body", note.body)));
    }
}
