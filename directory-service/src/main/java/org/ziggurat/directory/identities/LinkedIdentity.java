package org.ziggurat.directory.identities;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/**
 * A person's identity at another provider (an institution's proxy, ORCID, GitHub), by which they
 * sign in: the provider's id as the operator configured it, the issuer that vouched, and the
 * provider's subject, unique together; what the provider said of the person at the last sign-in.
 */
@Entity
@Table(name = "linked_identity")
public class LinkedIdentity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "person_id", nullable = false)
    public Long personId;

    @Column(nullable = false)
    public String provider;

    @Column(nullable = false)
    public String subject;

    /** The issuer that vouched for it ('' for a link from before links recorded it). */
    @Column(nullable = false)
    public String issuer = "";

    @Column(name = "display_name")
    public String displayName;

    public String email;

    @Column(name = "email_verified", nullable = false)
    public boolean emailVerified;

    /** eduperson_assurance values, space-separated. */
    @Column(nullable = false)
    public String assurance = "";

    public String orcid;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "last_used_at")
    public OffsetDateTime lastUsedAt;
}
