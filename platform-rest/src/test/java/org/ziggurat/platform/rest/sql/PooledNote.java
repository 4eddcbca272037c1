package org.ziggurat.platform.rest.sql;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The pooled test database's note, as a Panache entity (PanacheThroughPoolerTest). */
@Entity
@Table(name = "note")
public class PooledNote extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String body;
}
