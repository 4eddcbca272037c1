"""A registered resource server (issue #70): its own credential introspects the tokens meant for it
(RFC 7662 §4), beside the introspection the gateway's kind of client does for the platform's tokens."""
import time

from .common import API, SERVICE_PORTS, basic, die, http, log, owner_token, parallel, save_state, write_lines
from .targets import bench_client, post

RESOURCE = "https://bench-archive.example.org"
RESOURCE_TOKENS = "resource-server-tokens.txt"
RESOURCE_TOKEN_COUNT = 1000


def seed_resource_server(state):
    """The resource server, registered through the operators' API by the bench's owner, and tokens
    for it (client_credentials with resource=, no password hashing). The owner must be one of the
    platform's operators: `ZIGGURAT_OPERATORS=<owner's id> ./ziggurat up` (seed() passes the id it
    knows). Without that, the scenario is left out of the run with a line saying why."""
    admin = {"Authorization": f"Bearer {owner_token('admin')}"}
    server = state.get("resource_server")
    if not server:
        status, body, _ = http("POST", f"{API}/resource-servers", headers=admin, expect=[201, 403, 409], body={
            "identifier": RESOURCE, "name": "Bench archive", "scopes": ["user"], "access_token_format": "opaque"})
        if status == 403:
            log("seed: no resource server (the bench's owner is none of the platform's operators: "
                f"ZIGGURAT_OPERATORS={state.get('owner_id', '?')}); resource-server-introspection is left out")
            return
        if status == 409:
            # Registered by an earlier seeding whose state is gone: a new secret for it.
            _, listed, _ = http("GET", f"{API}/resource-servers", headers=admin, expect=[200])
            found = [s for s in listed if s.get("identifier") == RESOURCE]
            if not found:
                die(f"{RESOURCE} is taken, but not by a registered resource server: {listed}")
            _, body, _ = http("POST", f"{API}/resource-servers/{found[0]['id']}/secret", headers=admin, expect=[200, 201])
        server = {"client_id": body["client_id"], "client_secret": body["client_secret"]}
        state["resource_server"] = server
        save_state(state)
    log(f"seed: {RESOURCE_TOKEN_COUNT} client_credentials grants for {RESOURCE}")

    def grant(_):
        _, token, _ = http("POST", f"{API}/oauth/token", expect=[200], headers={
            "Accept": "application/json", "Authorization": bench_client(state)},
            form={"grant_type": "client_credentials", "scope": "user", "resource": RESOURCE})
        return token["access_token"]
    write_lines(RESOURCE_TOKENS, parallel(grant, range(RESOURCE_TOKEN_COUNT)))
    # Seeded tokens, which the token scenarios' purge of each run's own must keep (tokens.purge_run_tokens).
    state["resource_tokens_at"] = time.time()
    save_state(state)


def scenarios(state):
    auth_direct = f"http://127.0.0.1:{SERVICE_PORTS['auth-service']}"
    server = state.get("resource_server", {})
    return {
        "resource-server-introspection": {
            "title": "introspection by a registered resource server's credential (its audience's tokens) beside "
                     "the bench client's of its own tokens", "connections": 32,
            "bars": [("ratio", "a resource server's credential", "the client's own tokens", 0.9)],
            "needs": bool(server),
            "needs_why": "no resource server was registered: the bench's owner is none of the platform's operators "
                         "(ZIGGURAT_OPERATORS=<its id> ./ziggurat up)",
            "targets": [
                post("the client's own tokens", "ziggurat", f"{auth_direct}/oauth/introspect", "token={}",
                     bench_client(state), "access-tokens.txt"),
                post("a resource server's credential", "ziggurat", f"{auth_direct}/oauth/introspect", "token={}",
                     basic(server.get("client_id", ""), server.get("client_secret", "")), RESOURCE_TOKENS),
            ]},
    }
