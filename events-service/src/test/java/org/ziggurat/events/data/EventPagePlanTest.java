package org.ziggurat.events.data;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The list statements of {@link EventRepository}, as the service prepares them, read the index
 * of their shape even under a generic plan, when another repository holds the newest events of
 * the table: a large repository's newest page must not walk the whole table backwards.
 */
@QuarkusTest
class EventPagePlanTest {

    @Test
    void everyPageShapeReadsItsIndex() throws Exception {
        try (Connection c = ServiceDatabase.connect();
                Statement s = c.createStatement()) {
            s.execute("SET search_path TO events");
            s.execute("""
                    INSERT INTO repository (namespace, name) VALUES ('plan', 'large'), ('plan', 'busy') ON CONFLICT DO NOTHING;
                    INSERT INTO data_event (repository_id, kind, note, creator_id, creator_username, commits_count)
                    SELECT r.id, (ARRAY['FileUpload','API-Request','Fork'])[1 + g % 3], 'old', 1, 'plan', 0
                    FROM repository r, generate_series(1, 150000) g WHERE r.namespace = 'plan' AND r.name = 'large';
                    INSERT INTO data_event (repository_id, kind, note, creator_id, creator_username, commits_count)
                    SELECT r.id, 'API-Request', 'new', 1, 'plan', 0
                    FROM repository r, generate_series(1, 50000) g WHERE r.namespace = 'plan' AND r.name = 'busy';
                    ANALYZE data_event;
                    SET plan_cache_mode = force_generic_plan;
                    """);
            for (boolean ofKind : new boolean[] {false, true}) {
                for (boolean since : new boolean[] {false, true}) {
                    String name = "page_" + ofKind + "_" + since;
                    s.execute("PREPARE " + name + " AS " + EventRepository.pageSql(ofKind, since));
                    String args = "'plan', 'large'" + (ofKind ? ", 'Fork'" : "") + (since ? ", now() - interval '1 day'" : "") + ", 31, 0";
                    StringBuilder plan = new StringBuilder();
                    try (ResultSet rs = s.executeQuery("EXPLAIN EXECUTE " + name + "(" + args + ")")) {
                        while (rs.next()) {
                            plan.append(rs.getString(1)).append('\n');
                        }
                    }
                    int rows = 0;
                    try (ResultSet rs = s.executeQuery("EXECUTE " + name + "(" + args + ")")) {
                        while (rs.next()) {
                            assertEquals("old", rs.getString("note"), name + " should read the large repository only");
                            rows++;
                        }
                    }
                    assertEquals(31, rows, name);
                    String expected = ofKind ? "data_event_kind" : "data_event_newest";
                    assertTrue(plan.toString().contains(expected), name + " should read " + expected + ":\n" + plan);
                    assertFalse(plan.toString().contains("Sort"), name + " should not sort:\n" + plan);
                }
            }
        }
    }
}
