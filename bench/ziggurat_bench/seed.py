"""The seeding: PostgreSQL's settings, `./ziggurat up`, then people, applications and tokens through
the API, and each family's own data (vocab, events, Keycloak); the floor's lookup tables."""
import os
import shutil
import subprocess
import sys
import time
import urllib.parse

from .common import (API, DB, OWNER, PASSWORD, PEOPLE, ROOT, SERVER_DB, STATE, await_condition, basic,
                     database_named, die, http, log, owner_token, parallel, password_grant, read_state, save_state, sql,
                     username, write_lines)
from .events import seed_events
from .resource_servers import seed_resource_server
from .peers import seed_keycloak
from .processes import stack_database
from .vocab import seed_vocabulary

LOOPBACK = {"localhost", "127.0.0.1", "::1"}


def same_database(a, b):
    """Whether two (host, port, name) are one database, the loopback's names being one host."""
    key = lambda host, port, name: ("127.0.0.1" if host in LOOPBACK else host, port, name)
    return key(*a) == key(*b)


def check_stack_database(stack_must_run):
    """The seeding writes through the API and reads back with SQL (the scheme's id, the events'
    repository, the floor's tokens), so BENCH_DB_URL must name the database the stack's services
    use. The launcher chooses that one by its own rules (ZIGGURAT_DB_URL, else the server on 5432,
    else its private cluster on 15432); when the two differ, every SQL read finds nothing of what
    went through the API. Stops then, naming the stack's database. `stack_must_run`: after
    ./ziggurat up, where a stack whose database cannot be read is worth a word."""
    stack = stack_database()
    if stack is None:
        if stack_must_run:
            log("bench: the stack's database could not be read from its running vocab-service; "
                "BENCH_DB_URL is taken to be it")
        return
    ours = urllib.parse.urlparse(DB)
    if not same_database(stack, (ours.hostname or "127.0.0.1", ours.port or 5432, ours.path.lstrip("/"))):
        host, port, name = stack
        said = "BENCH_DB_URL" if "BENCH_DB_URL" in os.environ else "BENCH_DB_URL's default"
        die(f"the stack's services use the database {host}:{port}/{name}, but the bench would read "
            f"{database_named(DB)} ({said}), where nothing the seeding sends through the API arrives. Name the "
            f"stack's: BENCH_DB_URL=postgresql://postgres@{host}:{port}/{name} (with a password if its server asks "
            "for one)")


def seed_people(state):
    existing = int(sql("SELECT count(*) FROM directory.person WHERE username LIKE 'bench-%'") or 0)
    if existing >= PEOPLE:
        log(f"seed: {existing} people already")
        return
    log(f"seed: signing up {PEOPLE - existing} people through the API (Argon2id each)")
    started = time.time()

    def sign_up(i):
        status, body, _ = http("POST", f"{API}/people", body={"username": username(i), "password": PASSWORD,
                               "email": f"{username(i)}@bench.ziggurat.example", "display_name": f"Bench person {i}"})
        if status not in (201, 409, 422):
            die(f"sign-up of {username(i)} answered {status}: {body}")

    parallel(sign_up, range(1, PEOPLE + 1))
    log(f"seed: people in {time.time() - started:.0f}s")


def seed_applications(state):
    if state.get("client_id"):
        status, _, _ = http("POST", f"{API}/oauth/token", headers={"Accept": "application/json",
                            "Authorization": basic(state["client_id"], state["client_secret"])},
                            form={"grant_type": "client_credentials"})
        if status == 200:
            return
    owner = http("POST", f"{API}/oauth/token", headers={"Accept": "application/json"}, expect=[200],
                 form={"grant_type": "password", "username": OWNER, "password": PASSWORD,
                       "scope": "user write update admin"})[1]["access_token"]
    auth = {"Authorization": f"Bearer {owner}"}
    _, app, _ = http("POST", f"{API}/applications", headers=auth, expect=[201], body={
        "name": "Bench client", "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": "public user write",
        "password_grant": True})
    state.update(client_id=app["client_id"], client_secret=app["client_secret"])
    # Other applications, so the client table is not a one-row table.
    log("seed: 1000 applications")
    owners = {}

    def create(i):
        who = username(1 + i % 50)
        if who not in owners:
            owners[who] = http("POST", f"{API}/oauth/token", headers={"Accept": "application/json"}, expect=[200],
                               form={"grant_type": "password", "username": who, "password": PASSWORD,
                                     "scope": "user write admin"})[1]["access_token"]
        http("POST", f"{API}/applications", headers={"Authorization": f"Bearer {owners[who]}"}, expect=[201],
             body={"name": f"Bench application {i}", "redirect_uris": ["https://bench.example/cb"], "scopes": "public user"})

    for who in range(1, 51):  # tokens first, one thread: the sign-in throttle is per address
        create(who - 1)
    parallel(create, range(50, 1000))
    save_state(state)


def seeded_tokens_live(name, client_id, secret):
    """Whether the last token in this seed file is active on this server: the state file's clock
    alone trusts seeds that another database issued (a run that started its own cluster) or that
    were deleted since."""
    path = STATE / name
    if not path.exists() or not client_id:
        return False
    tokens = path.read_text().split()
    if not tokens:
        return False
    status, body, _ = http("POST", f"{API}/oauth/introspect", headers={"Accept": "application/json",
                           "Authorization": basic(client_id, secret)}, form={"token": tokens[-1]}, expect=[200, 401])
    return status == 200 and isinstance(body, dict) and body.get("active") is True


# Seeded tokens are reused by a later run only while they are this young. They live 2 h, and a
# full run takes 80 to 90 minutes: reused at 57 minutes old, they expired during the run's last
# half hour, and its topology and A/B scenarios measured refusals (bench-20261126T072006Z).
SEED_REUSE_SECONDS = 20 * 60


def seed_tokens(state):
    """Live tokens: one per person, issued to the bench client, younger than their 2 h lifetime."""
    cursor = STATE / "refresh-tokens.txt.cursor"
    used = int(cursor.read_text()) if cursor.exists() else 0
    if state.get("tokens_at", 0) > time.time() - SEED_REUSE_SECONDS and used + 256 <= PEOPLE // 2 and "--fresh-tokens" not in sys.argv \
            and all(seeded_tokens_live(name, state.get("client_id"), state.get("client_secret"))
                    for name in ("access-tokens.txt", "refresh-tokens.txt")):
        return
    log(f"seed: {PEOPLE} password grants (Argon2id each) for live tokens")
    started = time.time()
    issued = parallel(lambda i: password_grant(username(i), state["client_id"], state["client_secret"]),
                      range(1, PEOPLE + 1))
    # Two halves: a refresh rotates its family's tokens, so the tokens that the reading scenarios
    # present (first half) never share a family with those the refresh scenario rotates.
    half = len(issued) // 2
    write_lines("access-tokens.txt", [t["access_token"] for t in issued[:half]])
    write_lines("refresh-tokens.txt", [t["refresh_token"] for t in issued[half:]])
    write_lines("usernames.txt", [username(i) for i in range(1, PEOPLE + 1)])
    cursor.unlink(missing_ok=True)
    state["tokens_at"] = time.time()
    save_state(state)
    log(f"seed: tokens in {time.time() - started:.0f}s")


OPENID_CLIENTS = {"RS256": "openid-refresh-tokens.txt", "ES256": "openid-es256-refresh-tokens.txt"}
OPENID_PEOPLE = 400


def seed_openid(state):
    """Relying parties (openid, an ID token on every grant), one per signing algorithm, and refresh
    tokens of theirs to start refresh chains from, as the refresh scenario's are."""
    cursors = [STATE / (name + ".cursor") for name in OPENID_CLIENTS.values()]
    fresh = all((STATE / name).exists() for name in OPENID_CLIENTS.values()) and state.get("openid_tokens_at", 0) > time.time() - SEED_REUSE_SECONDS \
        and all(not c.exists() or int(c.read_text()) + 256 <= OPENID_PEOPLE for c in cursors) \
        and all(seeded_tokens_live(name, state.get(f"openid_{alg}", {}).get("client_id"),
                                   state.get(f"openid_{alg}", {}).get("client_secret"))
                for alg, name in OPENID_CLIENTS.items())
    if fresh and "--fresh-tokens" not in sys.argv:
        return
    owner = http("POST", f"{API}/oauth/token", headers={"Accept": "application/json"}, expect=[200],
                 form={"grant_type": "password", "username": OWNER, "password": PASSWORD, "scope": "admin"})[1]["access_token"]
    for alg, name in OPENID_CLIENTS.items():
        key = f"openid_{alg}"
        if not state.get(key):
            _, app, _ = http("POST", f"{API}/applications", headers={"Authorization": f"Bearer {owner}"}, expect=[201], body={
                "name": f"Bench relying party {alg}", "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": "openid user",
                "id_token_signed_response_alg": alg, "password_grant": True})
            state[key] = {"client_id": app["client_id"], "client_secret": app["client_secret"]}
        client = state[key]
        log(f"seed: {OPENID_PEOPLE} password grants with openid for the {alg} relying party")
        issued = parallel(lambda i: password_grant(username(i), client["client_id"], client["client_secret"], "openid user"),
                          range(1, OPENID_PEOPLE + 1))
        if not all("id_token" in t for t in issued):
            die("a password grant with openid answered without an ID token")
        write_lines(name, [t["refresh_token"] for t in issued])
        (STATE / (name + ".cursor")).unlink(missing_ok=True)
    state["openid_tokens_at"] = time.time()
    save_state(state)


def seed_resource_clients(state):
    """The clients of the JWT and DPoP scenarios: a confidential client whose access tokens are JWTs
    (RFC 9068, ES256), and a public client whose tokens are all bound to a DPoP key (RFC 9449)."""
    if state.get("jwt_client") and state.get("dpop_client"):
        return
    owner = owner_token("admin")
    if not state.get("jwt_client"):
        _, app, _ = http("POST", f"{API}/applications", headers={"Authorization": f"Bearer {owner}"}, expect=[201], body={
            "name": "Bench JWT client", "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": "user",
            "access_token_format": "jwt"})
        state["jwt_client"] = {"client_id": app["client_id"], "client_secret": app["client_secret"]}
    if not state.get("dpop_client"):
        _, app, _ = http("POST", f"{API}/applications", headers={"Authorization": f"Bearer {owner}"}, expect=[201], body={
            "name": "Bench DPoP client", "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": "user",
            "confidential": False, "password_grant": True, "dpop_bound_access_tokens": True})
        state["dpop_client"] = {"client_id": app["client_id"]}
    save_state(state)


def debian_cluster(port):
    """(version, name) of the Debian cluster (pg_lsclusters) configured on `port`, or None."""
    if not shutil.which("pg_lsclusters"):
        return None
    listed = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True).stdout
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[2] == str(port):
            return fields[0], fields[1]
    return None


def ensure_server_settings():
    """Keycloak's pool, the five services' pools and pgbench's 32 clients together need more than
    PostgreSQL's default 100 connections. shared_buffers is the production cluster's
    (deploy/k8s/base/postgres.yaml), not Debian's default of 128 MB, which a 40,000-concept import
    outgrows: its label indexes alone are larger, and every insert then reads and evicts pages.

    The settings take a restart of the server that BENCH_DB_URL names: the Debian cluster on its
    port (as root), or the launcher's private cluster (./ziggurat down stops it, and the seeding's
    ./ziggurat up starts it again). For any other server, it says what to run."""
    connections = int(sql("SHOW max_connections", SERVER_DB))
    buffers_mb = int(sql("SELECT setting::bigint * 8192 / 1048576 FROM pg_settings WHERE name = 'shared_buffers'",
                         SERVER_DB))
    if connections >= 250 and buffers_mb >= 512:
        return
    port = urllib.parse.urlparse(SERVER_DB).port or 5432
    cluster = debian_cluster(port) if os.geteuid() == 0 and shutil.which("pg_ctlcluster") else None
    private = (ROOT / ".run" / "own-postgres").exists() and port == int(os.environ.get("ZIGGURAT_OWN_PG_PORT", "15432"))
    if cluster or private:
        what = f"the local cluster {' '.join(cluster)}" if cluster else "the launcher's private cluster, and the stack with it"
        log(f"bench: raising PostgreSQL's max_connections ({connections}) to 250 and shared_buffers ({buffers_mb} MB) "
            f"to 512 MB, as in production (restarts {what})")
        sql("ALTER SYSTEM SET max_connections = 250", SERVER_DB)
        sql("ALTER SYSTEM SET shared_buffers = '512MB'", SERVER_DB)
    if cluster:
        subprocess.run(["pg_ctlcluster", *cluster, "restart"], check=True)
        await_condition(lambda: subprocess.run(["pg_isready", "-q", "-d", SERVER_DB]).returncode == 0, 60,
                        "PostgreSQL did not accept connections after its restart")
    elif private:
        subprocess.run([str(ROOT / "ziggurat"), "down"], check=True, stdout=subprocess.DEVNULL)
    else:
        die(f"PostgreSQL allows {connections} connections with {buffers_mb} MB of shared buffers; the benchmarks need "
            "250 and 512 MB: ALTER SYSTEM SET max_connections = 250; ALTER SYSTEM SET shared_buffers = '512MB'; "
            "then restart it")


def seed(with_keycloak=True):
    check_stack_database(stack_must_run=False)  # a stack that runs already: before its server's settings
    ensure_server_settings()
    # The bench's owner is one of the platform's operators once its id is known (a resource server
    # is registered by one): a stack that already runs keeps the operators it started with.
    known = read_state().get("owner_id")
    environment = {**os.environ, **({"ZIGGURAT_OPERATORS": str(known)} if known and "ZIGGURAT_OPERATORS" not in os.environ else {})}
    subprocess.run([str(ROOT / "ziggurat"), "up"], check=True, stdout=subprocess.DEVNULL, env=environment)
    check_stack_database(stack_must_run=True)
    state = read_state()
    seed_people(state)
    state["owner_id"] = int(sql(f"SELECT id FROM directory.person WHERE username = '{OWNER}'"))
    seed_applications(state)
    seed_tokens(state)
    seed_openid(state)
    seed_resource_clients(state)
    seed_resource_server(state)
    seed_vocabulary(state)
    seed_events(state)
    if with_keycloak:
        seed_keycloak(state)
    # What autovacuum does after a bulk load; on a server where it is off (as on this machine) the
    # planner would otherwise work from statistics of empty tables.
    sql("ANALYZE auth.token; ANALYZE auth.application; ANALYZE directory.person; ANALYZE events.data_event; "
        "ANALYZE vocab.concept; ANALYZE vocab.label")
    save_state(state)
    return state


def prepare_floor(state):
    """Lookup tables for pgbench: the values a request carries (token hashes, concept ids, search
    patterns), numbered so a script can pick one at random."""
    app = sql(f"SELECT id FROM auth.application WHERE client_id = '{state['client_id']}'")
    concepts = [c for c in (STATE / "concept-ids.txt").read_text().split() if c]
    terms = [urllib.parse.unquote(t) for t in (STATE / "search-terms.txt").read_text().split("\n") if t]
    quote = lambda v: "'" + v.replace("'", "''") + "'"
    sql(f"""DROP SCHEMA IF EXISTS bench_floor CASCADE; CREATE SCHEMA bench_floor;
        CREATE TABLE bench_floor.token_hashes (n int PRIMARY KEY, hash bytea);
        INSERT INTO bench_floor.token_hashes SELECT row_number() OVER (), hash FROM (
          SELECT hash FROM auth.token WHERE kind = 'a' AND application_id = {app} AND revoked_at IS NULL LIMIT 2000) t;
        CREATE TABLE bench_floor.concept_ids (n int PRIMARY KEY, id text);
        INSERT INTO bench_floor.concept_ids SELECT n, id FROM unnest(ARRAY[{','.join(map(quote, concepts))}]::text[])
          WITH ORDINALITY AS u(id, n);
        CREATE TABLE bench_floor.search_patterns (n int PRIMARY KEY, pattern text, lo text, hi text);
        INSERT INTO bench_floor.search_patterns SELECT n, replace(vocab.fold(t), '*', '%'), vocab.fold(rtrim(t, '*')),
          vocab.fold(rtrim(t, '*')) || CASE WHEN t LIKE '%*' THEN chr(1114111) ELSE chr(1) END
          FROM unnest(ARRAY[{','.join(map(quote, terms))}]::text[]) WITH ORDINALITY AS u(t, n);
        ANALYZE bench_floor.token_hashes; ANALYZE bench_floor.concept_ids; ANALYZE bench_floor.search_patterns;""")
    state["floor"] = {"app_first": app, "app_last": app,
                      "tokens": sql("SELECT count(*) FROM bench_floor.token_hashes"),
                      "concepts": len(concepts), "terms": len(terms), "people": PEOPLE,
                      "scheme": state.get("scheme_id", 0)}
