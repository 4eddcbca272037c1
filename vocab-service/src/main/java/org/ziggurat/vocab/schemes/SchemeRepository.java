package org.ziggurat.vocab.schemes;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.data.ValueTaken;

import java.util.ArrayList;
import java.util.List;

@ApplicationScoped
public class SchemeRepository {

    private final Pool pool;

    SchemeRepository(Pool pool) {
        this.pool = pool;
    }

    /** Sets a scheme's next revision (see {@link SchemeRow}); a write to the scheme or its concepts takes one. */
    public static final String NEW_REVISION = "revision = nextval('scheme_revision')";

    /**
     * The scheme's new revision, first in every transaction that writes its concepts: it locks the
     * scheme row before any concept row, the order every writer keeps, so two writers never wait
     * on each other in a cycle.
     */
    public static Uni<Void> newRevision(SqlConnection conn, long schemeId) {
        return conn.preparedQuery("UPDATE scheme SET " + NEW_REVISION + " WHERE id = $1").execute(Tuple.of(schemeId))
                .replaceWithVoid();
    }

    public Uni<SchemeRow> bySlug(String namespace, String slug) {
        return pool.preparedQuery("SELECT " + SchemeRow.COLUMNS + " FROM scheme s WHERE s.namespace = $1 AND s.slug = $2")
                .execute(Tuple.of(namespace, slug))
                .map(rows -> rows.rowCount() == 0 ? null : SchemeRow.from(rows.iterator().next()));
    }

    public Uni<SchemeRow> byId(long id) {
        return pool.preparedQuery("SELECT " + SchemeRow.COLUMNS + " FROM scheme s WHERE s.id = $1").execute(Tuple.of(id))
                .map(rows -> rows.rowCount() == 0 ? null : SchemeRow.from(rows.iterator().next()));
    }

    public Uni<List<SchemeRow>> page(String namespace, int limit, long offset) {
        return pool.preparedQuery("SELECT " + SchemeRow.COLUMNS + " FROM scheme s WHERE s.namespace = $1 "
                        + "ORDER BY s.slug LIMIT $2 OFFSET $3")
                .execute(Tuple.of(namespace, limit, offset)).map(rows -> {
                    List<SchemeRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(SchemeRow.from(r)));
                    return list;
                });
    }

    public Uni<SchemeRow> insert(String namespace, String slug, String abbr, String title, String definition,
            String language, long creatorId, String creatorUsername) {
        return pool.preparedQuery("INSERT INTO scheme AS s (namespace, slug, abbr, title, definition, default_language, "
                        + "creator_id, creator_username) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING " + SchemeRow.COLUMNS)
                .execute(Tuple.tuple().addValue(namespace).addValue(slug).addValue(abbr).addValue(title).addValue(definition)
                        .addValue(language).addValue(creatorId).addValue(creatorUsername))
                .map(rows -> SchemeRow.from(rows.iterator().next()))
                .onFailure(e -> e instanceof PgException pg && "23505".equals(pg.getSqlState()))
                .transform(e -> new ValueTaken("A scheme with the slug '" + slug + "' exists in this namespace."));
    }

    public Uni<SchemeRow> update(long id, String abbr, String title, String definition, String language) {
        return pool.preparedQuery("UPDATE scheme AS s SET abbr = coalesce($2, abbr), title = coalesce($3, title), "
                        + "definition = coalesce($4, definition), default_language = coalesce($5, default_language), "
                        + "updated_at = date_trunc('milliseconds', now()), " + NEW_REVISION + " WHERE s.id = $1 RETURNING " + SchemeRow.COLUMNS)
                .execute(Tuple.of(id, abbr, title, definition, language))
                .map(rows -> SchemeRow.from(rows.iterator().next()));
    }

    /**
     * What the concepts of a namespace were read under: each scheme's id and revision, in id order.
     * Any committed write to a scheme or its concepts changes a revision, a new or deleted scheme
     * the list; a maximum or a sum of revisions would not do, since revisions are drawn before
     * their transactions commit, in another order.
     */
    public Uni<String> namespaceRevision(String namespace) {
        return pool.preparedQuery("SELECT coalesce(string_agg(id || '.' || revision, ',' ORDER BY id), '') FROM scheme "
                        + "WHERE namespace = $1")
                .execute(Tuple.of(namespace)).map(rows -> rows.iterator().next().getString(0));
    }

    /** The scheme and all its concepts (ON DELETE CASCADE). */
    public Uni<Void> delete(long id) {
        return pool.preparedQuery("DELETE FROM scheme WHERE id = $1").execute(Tuple.of(id)).replaceWithVoid();
    }
}
