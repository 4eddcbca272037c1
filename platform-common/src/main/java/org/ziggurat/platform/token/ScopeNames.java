package org.ziggurat.platform.token;

import java.util.List;

/**
 * The platform's scopes, by name: what auth-service issues and every service checks
 * ({@link Caller#requireUserWithScope}). One vocabulary, so that a check and the documentation
 * of an operation cannot name a scope differently.
 */
public final class ScopeNames {

    /** What a token shows when it asked for no scope: public reads. */
    public static final String PUBLIC = "public";
    /** The person's own profile, private fields included. */
    public static final String USER = "user";
    /** Create content in the namespaces the person may write to. */
    public static final String WRITE = "write";
    /** Change and delete content in those namespaces. */
    public static final String UPDATE = "update";
    /** The person's applications, organizations and memberships. */
    public static final String ADMIN = "admin";
    /**
     * The account itself: its sign-in address, its export and its deletion, its security log.
     * Only an application an operator verified may ask for it; a third party cannot obtain it.
     */
    public static final String ACCOUNT = "account";
    /** OpenID Connect (Core §3.1.2.1): an ID token. */
    public static final String OPENID = "openid";
    /** OpenID Connect: name, username, picture at userinfo. */
    public static final String PROFILE = "profile";
    /** OpenID Connect: the sign-in address at userinfo. */
    public static final String EMAIL = "email";
    /** OpenID Connect Core §11: tokens that outlive the person's session. */
    public static final String OFFLINE_ACCESS = "offline_access";
    /** Research claims: the person's memberships as eduperson_entitlement values (AARC-G069). */
    public static final String ENTITLEMENTS = "entitlements";
    /** Research claims: the person's ORCID iD, from a linked ORCID sign-in. */
    public static final String ORCID = "orcid";
    /** Research claims: REFEDS assurance that the person's linked providers asserted. */
    public static final String EDUPERSON_ASSURANCE = "eduperson_assurance";
    /** Research claims: the person's persistent, never reassigned identifier (voperson_id). */
    public static final String VOPERSON_ID = "voperson_id";

    /** Every scope, in the order tokens and the metadata list them. */
    public static final List<String> ALL = List.of(PUBLIC, USER, WRITE, UPDATE, ADMIN, ACCOUNT, OPENID, PROFILE,
            EMAIL, OFFLINE_ACCESS, ENTITLEMENTS, ORCID, EDUPERSON_ASSURANCE, VOPERSON_ID);

    /** The scopes of research claims, in ID tokens, userinfo and introspection answers. */
    public static final List<String> RESEARCH = List.of(ENTITLEMENTS, ORCID, EDUPERSON_ASSURANCE, VOPERSON_ID);

    /** The scopes only an application an operator verified may ask for. */
    public static final List<String> FIRST_PARTY_ONLY = List.of(ACCOUNT);

    private ScopeNames() {
    }
}
