package org.ziggurat.platform.testing;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every database-backed service promises before it has any endpoint of its own: health
 * with the database in readiness, its migrations run into its own schema, metrics, OpenAPI, and
 * problem documents for unknown paths. Each service's test extends this and names its schema.
 */
public abstract class ServiceFoundationChecks {

    /** The service's own Postgres schema. */
    protected abstract String schema();

    @Test
    void livenessIsUp() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void readinessIncludesTheDatabase() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Reactive PostgreSQL connections health check"));
    }

    @Test
    void migrationsRanIntoTheServiceSchema() throws SQLException {
        try (Connection c = ServiceDatabase.connect(); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + schema() + ".flyway_schema_history WHERE success")) {
                assertTrue(r.next());
                assertTrue(r.getInt(1) >= 1, "Flyway recorded its runs in the service's schema");
            }
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + schema() + ".flyway_schema_history WHERE NOT success")) {
                assertTrue(r.next());
                assertEquals(0, r.getInt(1), "no failed migration");
            }
        }
    }

    @Test
    void unknownPathIsAProblem() {
        given().get("/surely/not/a/route").then().statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("request_id", notNullValue());
    }

    @Test
    void metricsAndOpenApiAreServed() {
        given().get("/q/metrics").then().statusCode(200);
        given().accept("application/json").get("/q/openapi").then().statusCode(200).body("openapi", notNullValue());
    }
}
