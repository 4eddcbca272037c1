package org.ziggurat.vocab.concepts;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * What a concept says besides its row (labels, notes, broader links, matches), written for many
 * concepts at once: a concept's creation and replacement, and an import's batches.
 */
public final class ConceptParts {

    private ConceptParts() {
    }

    /** Labels, notes, broader links and matches of many concepts: four statements, whatever their number. */
    public static Uni<Void> write(SqlConnection conn, List<String> ids, List<ConceptInput> inputs) {
        List<Object[]> labels = new ArrayList<>();
        List<Object[]> notes = new ArrayList<>();
        List<Object[]> broader = new ArrayList<>();
        List<Object[]> matches = new ArrayList<>();
        for (int c = 0; c < ids.size(); c++) {
            String id = ids.get(c);
            ConceptInput input = inputs.get(c);
            for (int i = 0; i < input.labels().size(); i++) {
                ConceptInput.Label l = input.labels().get(i);
                labels.add(new Object[] {id, i, l.type(), l.body(), l.language(), l.abbreviation(), l.vernacular(), l.historical()});
            }
            for (int i = 0; i < input.notes().size(); i++) {
                ConceptInput.Note n = input.notes().get(i);
                notes.add(new Object[] {id, i, n.type(), n.body(), n.language()});
            }
            for (String b : input.broader()) {
                broader.add(new Object[] {id, b});
            }
            for (int i = 0; i < input.matches().size(); i++) {
                ConceptInput.Match m = input.matches().get(i);
                matches.add(new Object[] {id, i, m.property(), m.url()});
            }
        }
        return insertColumns(conn, "label (concept_id, position, type, body, language, abbreviation, vernacular, historical)",
                new String[] {"text", "int", "text", "text", "text", "bool", "text", "text"}, labels)
                .chain(() -> insertColumns(conn, "note (concept_id, position, type, body, language)",
                        new String[] {"text", "int", "text", "text", "text"}, notes))
                .chain(() -> insertColumns(conn, "broader (concept_id, broader_id)", new String[] {"text", "text"}, broader))
                .chain(() -> insertColumns(conn, "match (concept_id, position, property, url)",
                        new String[] {"text", "int", "text", "text"}, matches));
    }

    /** One INSERT ... SELECT FROM unnest(arrays) for rows given as tuples of the named column types. */
    private static Uni<Void> insertColumns(SqlConnection conn, String target, String[] types, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple args = Tuple.tuple();
        StringBuilder unnest = new StringBuilder();
        for (int col = 0; col < types.length; col++) {
            Object[] column = switch (types[col]) {
                case "int" -> new Integer[rows.size()];
                case "bool" -> new Boolean[rows.size()];
                default -> new String[rows.size()];
            };
            for (int r = 0; r < rows.size(); r++) {
                column[r] = rows.get(r)[col];
            }
            args.addValue(column);
            unnest.append(col == 0 ? "" : ", ").append('$').append(col + 1).append("::").append(types[col]).append("[]");
        }
        return conn.preparedQuery("INSERT INTO " + target + " SELECT * FROM unnest(" + unnest + ")").execute(args)
                .replaceWithVoid();
    }
}
