package org.ziggurat.platform.rest.sql;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/** A read and a write through the service's pool, as the services' repositories make them. */
@Path("/probe/pooled")
@Produces(MediaType.APPLICATION_JSON)
public class PooledProbeResource {

    @Inject
    Pool pool;

    @GET
    public Uni<Map<String, Object>> read() {
        return pool.preparedQuery("SELECT count(*) AS notes FROM note").execute()
                .map(rows -> Map.of("notes", rows.iterator().next().getLong("notes")));
    }

    /** One transaction of two statements: the note, and its count after it. */
    @POST
    public Uni<Map<String, Object>> write(String body) {
        return pool.withTransaction(conn -> conn.preparedQuery("INSERT INTO note (body) VALUES ($1) RETURNING id")
                .execute(Tuple.of(body)).chain(inserted -> conn.preparedQuery("SELECT count(*) AS notes FROM note WHERE id <= $1")
                        .execute(Tuple.of(inserted.iterator().next().getLong("id")))
                        .map(counted -> Map.<String, Object>of("id", inserted.iterator().next().getLong("id")))));
    }
}
