package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** A person's WebAuthn credential, as auth-service registered it (its COSE public key and counter). */
@Entity
@Table(name = "passkey")
public class Passkey extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "person_id", nullable = false)
    public Long personId;

    @Column(name = "credential_id", nullable = false)
    public byte[] credentialId;

    @Column(name = "public_key", nullable = false)
    public byte[] publicKey;

    @Column(name = "sign_count", nullable = false)
    public long signCount;

    @Column(name = "uv_initialized", nullable = false)
    public boolean uvInitialized;

    @Column(name = "backup_eligible", nullable = false)
    public boolean backupEligible;

    public String transports;

    @Column(nullable = false)
    public String name;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "last_used_at")
    public OffsetDateTime lastUsedAt;
}
