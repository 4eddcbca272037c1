package org.ziggurat.platform.rest.sql;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgPool;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Every service's default datasource is a {@link RetryingPgPool} over the pool Quarkus would have
 * made from its settings (Quarkus asks a {@link PgPoolCreator} bean for it). The one thing it
 * leaves out is a credentials provider, which no service uses.
 */
@ApplicationScoped
public class RetryingPoolCreator implements PgPoolCreator {

    @Override
    public Pool create(Input input) {
        PgPool pool = (PgPool) PgDriver.INSTANCE.createPool(input.vertx(), input.pgConnectOptionsList(), input.poolOptions());
        return new RetryingPgPool(pool, input.vertx());
    }
}
