"""The gateway's hop: reads through it beside the same reads straight to directory-service (with
the platform token the gateway would have signed) and through nginx; its rate limits per replica,
shared with its peers, and off."""
import base64
import concurrent.futures
import json
import re
import subprocess
import time
import urllib.parse
from http.client import HTTPConnection

from .common import (GATEWAY, GATEWAY_PREFIX, OWNER, ROOT, SERVICE_PORTS, STATE, await_condition, die, first_line,
                     http, log, parallel, sql, username, write_lines)
from .peers import NGINX_PORT
from .processes import running_env
from .targets import floor, get


# Gateways the rate-limit scenario starts beside the launcher's, with its environment and these changes.
EXTRA_GATEWAYS = {
    # ZIGGURAT_GATEWAY_REPLICAS=2 until the first lookup answers: the log then shows the lookup ran.
    "peers": {"port": 9180, "management": 9190, "dpop_peer": 9181,
              "env": {"ZIGGURAT_GATEWAY_PEERS": "localhost", "ZIGGURAT_GATEWAY_REPLICAS": "2"},
              "proof": r"rate limits shared by \d+ gateway replicas \(localhost\)"},
    "off": {"port": 9280, "management": 9290, "dpop_peer": 9281, "env": {"ZIGGURAT_GATEWAY_RATE_LIMIT_ENABLED": "false"}, "proof": None},
}


def platform_token(user_id, user, scopes, client_id):
    """What the gateway forwards, signed with the gateway's key from .run/keys: lets a benchmark send
    the same request straight to a service."""
    keys = ROOT / ".run" / "keys"
    kid = next(k["kid"] for k in json.loads((keys / "jwks.json").read_text())["keys"] if k["kid"].startswith("gateway:"))
    now = int(time.time())
    header = {"kid": kid, "typ": "JWT", "alg": "RS256"}
    claims = {"iss": "urn:ziggurat:platform", "aud": "urn:ziggurat:services", "iat": now, "exp": now + 60,
              "sub": str(user_id), "upn": user, "groups": scopes, "scope": " ".join(scopes), "client_id": client_id}
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    signing_input = b64(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", str(keys / "gateway.private.pem")],
                               input=signing_input.encode(), capture_output=True, check=True).stdout
    return signing_input + "." + b64(signature)


def user_platform_tokens(state):
    """The platform tokens the gateway forwards for the people of access-tokens.txt, line by line (token
    i is person i's, with scope user, from the bench client): the direct GET /user asks as the same
    1,000 people as the gateway target. Signed anew before each run, as they live 60 s."""
    count = len([t for t in (STATE / "access-tokens.txt").read_text().split("\n") if t])
    names = [username(i) for i in range(1, count + 1)]
    ids = dict(line.split("|") for line in sql(
        "SELECT username, id FROM directory.person WHERE username = ANY(ARRAY["
        + ",".join(f"'{n}'" for n in names) + "])").split("\n"))
    tokens = parallel(lambda n: platform_token(int(ids[n]), n, ["user"], state.get("client_id", "")), names)
    return str(write_lines("user-platform-tokens.txt", tokens))


def prime_gateway_caches(replicas, gateway=GATEWAY):
    """Presents each seeded access token once to every gateway replica (the balancer sends each
    request to the next one), so that a run measures cached tokens, not a burst of introspections."""
    tokens = [t for t in (STATE / "access-tokens.txt").read_text().split("\n") if t]
    host, port = urllib.parse.urlparse(gateway).hostname, urllib.parse.urlparse(gateway).port

    def present(share):
        connection = HTTPConnection(host, port, timeout=30)
        for token in share:
            for _ in range(replicas):
                connection.request("GET", f"{GATEWAY_PREFIX}/user", headers={"Authorization": f"Bearer {token}"})
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    die(f"GET /user through the gateway answered {response.status} while priming its cache")
        connection.close()

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(present, [tokens[i::4] for i in range(4)]))


def cached_tokens(env):
    # The scenario is "with a cached token". The gateway keeps an answer 15 to 30 s, and the
    # other targets' runs between two of its runs take longer, so without this every run began
    # with 1,000 introspections and signatures at once (p99 68 to 111 ms, against 17 to 25 ms
    # for runs that directly followed another). Each token is presented once before the run.
    prime_gateway_caches(1)


def start_extra_gateway(which):
    """A second gateway beside the launcher's: its environment (read from the running process), its
    jar, other ports, and the settings of EXTRA_GATEWAYS[which]. Stopped when the scenario ends."""
    settings = EXTRA_GATEWAYS[which]
    env = running_env("gateway")
    env.update({"QUARKUS_HTTP_PORT": str(settings["port"]), "QUARKUS_HTTP_HOST": "127.0.0.1",
                "QUARKUS_MANAGEMENT_PORT": str(settings["management"]),
                # Its own port for the other gateways' DPoP questions: the launcher's holds 8091 (or
                # the port the launcher set), and a second bind of it stopped the gateway at start.
                "ZIGGURAT_GATEWAY_DPOP_PEER_PORT": str(settings["dpop_peer"])}, **settings["env"])
    log_file = ROOT / ".run" / "logs" / f"gateway-bench-{which}.log"
    with open(log_file, "w") as out:
        process = subprocess.Popen(["java", "-Xmx384m", "-jar", str(ROOT / "gateway/target/quarkus-app/quarkus-run.jar")],
                                   cwd=ROOT / ".run", env=env, stdout=out, stderr=subprocess.STDOUT)

    def ready():
        try:
            return http("GET", f"http://127.0.0.1:{settings['management']}/q/health/ready", timeout=2)[0] == 200
        except OSError:
            return False

    await_condition(ready, 60, f"the extra gateway ({which}) did not get ready: see {log_file}")
    if settings["proof"]:
        await_condition(lambda: re.search(settings["proof"], log_file.read_text(errors="replace")), 15,
                        f"the extra gateway ({which}) never logged that it looked its peers up: see {log_file}")
    log(f"   (started a gateway with {settings['env']} on port {settings['port']})")
    return process


def scenarios(state):
    gw = GATEWAY + GATEWAY_PREFIX
    user_id = state.get("owner_id", 0)

    def direct_platform(env):
        env["BENCH_HEADERS"] = env["BENCH_HEADERS"].replace(
            "PLATFORM", platform_token(user_id, OWNER, ["user"], state.get("client_id", "")))

    def direct_platform_per_person(env):
        # The same people, in the same order, as the access tokens the gateway target presents.
        env["BENCH_LINES"] = user_platform_tokens(state)

    return {
        "people": {
            "title": "GET /people/:username with a cached token", "connections": 32,
            "bars": [("ratio", "Ziggurat through the gateway", "directory-service direct", 0.6),
                     ("ratio", "Ziggurat through the gateway", "nginx in front", 0.9),
                     ("p99-beside", "Ziggurat through the gateway", "nginx in front", 2)],
            "targets": [
                get("Ziggurat through the gateway", "ziggurat", gw, f"{GATEWAY_PREFIX}/people/{{}}", 32, "usernames.txt",
                    f"Authorization: Bearer {first_line('access-tokens.txt')}"),
                dict(get("directory-service direct", "ziggurat", f"http://127.0.0.1:{SERVICE_PORTS['directory-service']}",
                         "/people/{}", 32, "usernames.txt", "X-Platform-Token: PLATFORM"), prepare=direct_platform),
                # The reference proxy: the same request (the platform token it carries is what the
                # gateway would have signed) through nginx to the same directory-service.
                dict(get("nginx in front", "nginx", f"http://127.0.0.1:{NGINX_PORT}", "/people/{}", 32, "usernames.txt",
                         "X-Platform-Token: PLATFORM"), prepare=direct_platform, nginx=True),
                floor(state, "PostgreSQL floor", "person-by-username.sql", 32),
            ]},
        "user": {
            "title": "GET /user with a cached token", "connections": 32,
            "bars": [("ratio", "Ziggurat through the gateway", "directory-service direct", 0.6),
                     ("ratio", "Ziggurat through the gateway", "nginx in front", 0.9),
                     ("p99-beside", "Ziggurat through the gateway", "nginx in front", 2)],
            "targets": [
                dict(get("Ziggurat through the gateway", "ziggurat", gw, f"{GATEWAY_PREFIX}/user", 32, "access-tokens.txt",
                         "Authorization: Bearer {}"), prepare=cached_tokens),
                dict(get("directory-service direct", "ziggurat", f"http://127.0.0.1:{SERVICE_PORTS['directory-service']}",
                         "/user", 32, None, "X-Platform-Token: {}"), prepare=direct_platform_per_person),
                dict(get("nginx in front", "nginx", f"http://127.0.0.1:{NGINX_PORT}", "/user", 32, None,
                         "X-Platform-Token: {}"), prepare=direct_platform_per_person, nginx=True),
                floor(state, "PostgreSQL floor", "person-by-id.sql", 32),
            ]},
        # What holding the rate limits in total across replicas costs the gateway (GatewayReplicas:
        # each replica allows limit / N, N from DNS every 10 s). Three gateways in front of the same
        # services, the same request, side by side: the launcher's, one that looks its peers up, one
        # with no limits at all. The limits are far above the load, so nothing is refused.
        "rate-limit-share": {
            "title": "GET /people/:username through the gateway: rate limits per replica, shared, off", "connections": 32,
            "bars": [("ratio", "gateway, limits shared with its peers", "gateway, limits of one replica", 0.9)],
            "targets": [
                get("gateway, limits of one replica", "ziggurat", gw, f"{GATEWAY_PREFIX}/people/{{}}", 32,
                    "usernames.txt", f"Authorization: Bearer {first_line('access-tokens.txt')}"),
                dict(get("gateway, limits shared with its peers", "ziggurat",
                         f"http://127.0.0.1:{EXTRA_GATEWAYS['peers']['port']}", f"{GATEWAY_PREFIX}/people/{{}}", 32,
                         "usernames.txt", f"Authorization: Bearer {first_line('access-tokens.txt')}"),
                     gateway="peers"),
                dict(get("gateway, no rate limits", "ziggurat", f"http://127.0.0.1:{EXTRA_GATEWAYS['off']['port']}",
                         f"{GATEWAY_PREFIX}/people/{{}}", 32, "usernames.txt",
                         f"Authorization: Bearer {first_line('access-tokens.txt')}"),
                     gateway="off"),
            ]},
    }
