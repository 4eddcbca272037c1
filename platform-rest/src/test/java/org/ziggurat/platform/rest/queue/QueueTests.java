package org.ziggurat.platform.rest.queue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;

/** The queue's test classes: a database of their own for each, and how long they wait for what must come. */
abstract class QueueTests {

    static final Duration WAIT = Duration.ofSeconds(30);
    static QueueTestDatabase db;

    @BeforeAll
    static void database() throws Exception {
        db = new QueueTestDatabase();
    }

    @AfterAll
    static void close() {
        if (db != null) {
            db.close();
        }
    }
}
