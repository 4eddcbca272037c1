package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** One single-use recovery code of a person, by its keyed hash ({@link FactorSecrets#recoveryHash}). */
@Entity
@Table(name = "recovery_code")
public class RecoveryCode extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "person_id", nullable = false)
    public Long personId;

    @Column(name = "code_hash", nullable = false)
    public byte[] codeHash;

    @Column(name = "used_at")
    public OffsetDateTime usedAt;
}
