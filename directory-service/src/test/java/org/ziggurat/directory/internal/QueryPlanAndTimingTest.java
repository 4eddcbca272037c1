package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reads the platform leans on are served by indexes (with sequential scans switched off, a
 * query that has no index to use still plans a Seq Scan), and a refused password check costs the
 * same whether or not the account exists.
 */
@QuarkusTest
class QueryPlanAndTimingTest {

    @Inject
    Hashing hashing;

    @Test
    void hotReadsUseIndexes() throws Exception {
        try (Connection c = ServiceDatabase.connect();
                Statement s = c.createStatement()) {
            s.execute("SET search_path TO directory");
            s.execute("SET enable_seqscan = off");
            for (String query : new String[] {
                    "SELECT * FROM person WHERE username = 'someone'",
                    "SELECT * FROM person WHERE lower(email) = lower('a@example.org')",
                    "SELECT * FROM person WHERE id = 42",
                    "SELECT * FROM namespace WHERE name_key = 'someone'",
                    "SELECT * FROM organization WHERE id = 7",
                    "SELECT * FROM organization ORDER BY created_at DESC, id DESC LIMIT 30",
                    "SELECT * FROM membership WHERE person_id = 42",
                    "SELECT * FROM membership WHERE organization_id = 7 AND person_id = 42",
                    "SELECT * FROM organization_application WHERE client_id = 'abc'",
                    "SELECT * FROM login_throttle WHERE key = ANY(ARRAY['account:x'])"}) {
                String plan = plan(s, query);
                assertFalse(plan.contains("Seq Scan"), query + " has no index:\n" + plan);
                assertTrue(plan.contains("Index"), query + ":\n" + plan);
            }
        }
    }

    @Test
    void refusingAnUnknownAccountCostsWhatAWrongPasswordCosts() {
        String stored = hashing.hash("the real password").await().indefinitely();
        List<Long> known = new ArrayList<>();
        List<Long> unknown = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            known.add(timed(() -> hashing.verify("a wrong password", stored).await().indefinitely()));
            unknown.add(timed(() -> hashing.verify("a wrong password", null).await().indefinitely()));
        }
        long knownMedian = median(known);
        long unknownMedian = median(unknown);
        // Both run one Argon2id derivation with the same parameters; allow for a loaded machine.
        assertTrue(unknownMedian * 2 >= knownMedian && knownMedian * 2 >= unknownMedian,
                "known " + known + " unknown " + unknown);
    }

    private static String plan(Statement s, String query) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet r = s.executeQuery("EXPLAIN " + query)) {
            while (r.next()) {
                plan.append(r.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private static long timed(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return System.nanoTime() - start;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
