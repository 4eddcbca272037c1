"""The token endpoint and introspection: grants (client credentials, refresh chains, password,
openid, JWT access tokens) against Keycloak and the floor; each token scenario starts from the
seeded token table."""
import json
import urllib.parse

from .common import DB, GATEWAY, GATEWAY_PREFIX, PASSWORD, SERVICE_PORTS, basic, first_line, log, sql
from .seed import OPENID_CLIENTS
from .targets import bench_client, floor, post, refresh


def purge_run_tokens(state):
    """Each token scenario starts from the seeded token table. Earlier runs (ours and the floor's)
    leave hundreds of thousands of live tokens behind, and a table that grows from run to run made
    runs incomparable: the floor's inserts fell from 9,600/s to 6,400/s over a day. VACUUM, because
    autovacuum may be off (it is on this machine). The cut-off is the later of the two seedings:
    the relying parties' tokens are seeded after the others, and a purge from the first seeding
    deleted them, so every openid refresh of a full run failed (bench-20261126T035707Z)."""
    seeded = max(state.get("tokens_at", 0), state.get("openid_tokens_at", 0), state.get("resource_tokens_at", 0))
    if not seeded:
        return
    # The owner's tokens stay: the events scenario's was issued when the scenarios were set up.
    deleted = sql(f"WITH d AS (DELETE FROM auth.token WHERE created_at > to_timestamp({seeded}) "
                  f"AND person_id IS DISTINCT FROM {int(state.get('owner_id', 0))} RETURNING 1) SELECT count(*) FROM d")
    sql("VACUUM (ANALYZE) auth.token")
    log(f"   (removed {deleted} tokens issued by earlier runs)")


def password_parameters():
    """The hashing each side did for the accounts measured, read from what each stored."""
    measured = first_line("usernames.txt")
    ours = sql(f"SELECT split_part(password_hash, '$', 4) FROM directory.person WHERE username = '{measured}'")
    keycloak_db = DB.rsplit("/", 1)[0] + "/keycloak"
    theirs = sql("SELECT c.credential_data FROM credential c JOIN user_entity u ON u.id = c.user_id "
                 "WHERE u.username = 'bench-user' AND c.type = 'password'", db=keycloak_db)
    data = json.loads(theirs or "{}")
    extra = {k: v[0] for k, v in data.get("additionalParameters", {}).items()}
    return [f"Hashing of the measured accounts, as stored: Ziggurat Argon2id `{ours}` (KiB, iterations, lanes); "
            f"Keycloak {data.get('algorithm', '?')} {extra.get('type', '')} m={extra.get('memory', '?')},"
            f"t={data.get('hashIterations', '?')},p={extra.get('parallelism', '?')}."]


def scenarios(state):
    kc = state.get("keycloak", {})
    client = bench_client(state)
    kc_client = basic(kc.get("KEYCLOAK_CLIENT_ID", ""), kc.get("KEYCLOAK_CLIENT_SECRET", ""))
    auth_direct = f"http://127.0.0.1:{SERVICE_PORTS['auth-service']}"
    kc_token = kc.get("KEYCLOAK_TOKEN_URL", "")
    kc_introspect = kc.get("KEYCLOAK_INTROSPECT_URL", "")
    gw = GATEWAY + GATEWAY_PREFIX

    def openid_client(alg):
        rp = state.get(f"openid_{alg}", {})
        return basic(rp.get("client_id", ""), rp.get("client_secret", ""))

    return {
        # Keycloak is called on its own port, so the like-for-like target (and the bars) is
        # auth-service on its own port; the same request through the gateway is reported beside.
        "client-credentials": {
            "title": "client_credentials grant", "connections": 32,
            "bars": [("ratio", "Ziggurat (auth-service)", "Keycloak", 5.0), ("p99", "Ziggurat (auth-service)", 50)],
            "targets": [
                post("Ziggurat (auth-service)", "ziggurat", f"{auth_direct}/oauth/token",
                     "grant_type=client_credentials", client),
                post("Ziggurat through the gateway", "ziggurat", f"{gw}/oauth/token", "grant_type=client_credentials",
                     client),
                post("Keycloak", "keycloak", kc_token, "grant_type=client_credentials", kc_client),
                floor(state, "PostgreSQL floor", "token-insert.sql", 32),
            ]},
        "refresh": {
            "title": "refresh_token grant (rotation: each token used once)", "connections": 32,
            "bars": [("ratio", "Ziggurat (auth-service)", "Keycloak", 5.0), ("p99", "Ziggurat (auth-service)", 50)],
            "targets": [
                refresh("Ziggurat (auth-service)", "ziggurat", f"{auth_direct}/oauth/token", client, "refresh-tokens.txt"),
                refresh("Ziggurat through the gateway", "ziggurat", f"{gw}/oauth/token", client, "refresh-tokens.txt"),
                refresh("Keycloak", "keycloak", kc_token, kc_client, "keycloak-refresh-tokens.txt"),
                floor(state, "PostgreSQL floor", "token-rotate.sql", 32),
            ]},
        # What signing an ID token costs the token endpoint: the same refresh chains as "refresh",
        # for relying parties that asked for openid (a new ID token on every refresh, OpenID
        # Connect Core 12.2), side by side with the plain grant.
        "openid": {
            "title": "refresh_token grant with openid (an ID token signed on each) beside the plain grant",
            "connections": 32,
            "bars": [("ratio", "openid, RS256 (the default)", "plain refresh", 0.67),
                     ("ratio", "openid, ES256", "plain refresh", 0.67)],
            "targets": [
                refresh("plain refresh", "ziggurat", f"{auth_direct}/oauth/token", client, "refresh-tokens.txt"),
                refresh("openid, RS256 (the default)", "ziggurat", f"{auth_direct}/oauth/token",
                        openid_client("RS256"), OPENID_CLIENTS["RS256"]),
                refresh("openid, ES256", "ziggurat", f"{auth_direct}/oauth/token", openid_client("ES256"),
                        OPENID_CLIENTS["ES256"]),
            ]},
        # The same with the password grant, where Argon2id is most of the cost.
        "openid-password": {
            "title": "password grant with openid (an ID token signed on each) beside the plain grant",
            "connections": 32,
            "bars": [("ratio", "password with openid, RS256", "plain password", 0.67)],
            "targets": [
                post("plain password", "ziggurat", f"{auth_direct}/oauth/token",
                     f"grant_type=password&username={{}}&password={urllib.parse.quote_plus(PASSWORD)}&scope=user",
                     client, "usernames.txt"),
                post("password with openid, RS256", "ziggurat", f"{auth_direct}/oauth/token",
                     f"grant_type=password&username={{}}&password={urllib.parse.quote_plus(PASSWORD)}&scope=openid+user",
                     openid_client("RS256"), "usernames.txt"),
            ]},
        # RFC 9068: the same grant for a client whose access tokens are JWTs signed with ES256,
        # beside the bench client's opaque ones. Signing may cost at most a third of the throughput.
        "jwt-access-tokens": {
            "title": "client_credentials grant: JWT access tokens (RFC 9068, ES256) beside opaque ones",
            "connections": 32,
            "bars": [("ratio", "JWT access tokens (ES256)", "opaque access tokens", 0.67)],
            "targets": [
                post("opaque access tokens", "ziggurat", f"{auth_direct}/oauth/token", "grant_type=client_credentials",
                     client),
                post("JWT access tokens (ES256)", "ziggurat", f"{auth_direct}/oauth/token",
                     "grant_type=client_credentials", basic(state.get("jwt_client", {}).get("client_id", ""),
                                                            state.get("jwt_client", {}).get("client_secret", ""))),
            ]},
        "introspection": {
            "title": "token introspection (RFC 7662)", "connections": 32,
            "bars": [("ratio", "Ziggurat (auth-service)", "Keycloak", 5.0), ("p99", "Ziggurat (auth-service)", 50)],
            "targets": [
                post("Ziggurat (auth-service)", "ziggurat", f"{auth_direct}/oauth/introspect", "token={}", client,
                     "access-tokens.txt"),
                post("Ziggurat through the gateway", "ziggurat", f"{gw}/oauth/introspect", "token={}", client,
                     "access-tokens.txt"),
                post("Keycloak", "keycloak", kc_introspect, "token={}", kc_client, "keycloak-access-tokens.txt"),
                floor(state, "PostgreSQL floor", "token-lookup.sql", 32),
            ]},
        "password": {
            "title": "password grant (Argon2id for Ziggurat, Keycloak's default hashing)", "connections": 32,
            "bars": [("ratio", "Ziggurat (auth-service)", "Keycloak", 1.0)],
            "details": password_parameters,
            "targets": [
                post("Ziggurat (auth-service)", "ziggurat", f"{auth_direct}/oauth/token",
                     f"grant_type=password&username={{}}&password={urllib.parse.quote_plus(PASSWORD)}&scope=user",
                     client, "usernames.txt"),
                post("Keycloak", "keycloak", kc_token,
                     f"grant_type=password&username={kc.get('KEYCLOAK_USER', '')}&password="
                     f"{urllib.parse.quote_plus(kc.get('KEYCLOAK_PASSWORD', ''))}", kc_client),
            ]},
    }
