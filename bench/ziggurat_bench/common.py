"""What every part of the bench shares: its settings (BENCH_* from the environment), the stack's
addresses and the seeded names, logging and stopping, HTTP and SQL, the files under .run/bench,
and the owner's tokens."""
import base64
import concurrent.futures
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path


# This file is bench/ziggurat_bench/common.py.
ROOT = Path(__file__).resolve().parent.parent.parent
BENCH = ROOT / "bench"
STATE = ROOT / ".run" / "bench"
RESULTS = BENCH / "results"
API = os.environ.get("ZIGGURAT_PUBLIC_BASE_URL", "http://localhost:8080/api")
GATEWAY = "http://127.0.0.1:8080"
GATEWAY_PREFIX = urllib.parse.urlparse(API).path.rstrip("/")
SERVICE_PORTS = {"auth-service": 8081, "directory-service": 8082, "vocab-service": 8083, "events-service": 8084}
DB = os.environ.get("BENCH_DB_URL", "postgresql://postgres@127.0.0.1:5432/ziggurat")
# Server settings are read before ./ziggurat up has created its database: through the "postgres" one.
SERVER_DB = urllib.parse.urlparse(DB)._replace(path="/postgres").geturl()
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
DURATION = os.environ.get("BENCH_DURATION", "10s")
WARMUP = os.environ.get("BENCH_WARMUP", "25s")
WARMUP_MORE = int(os.environ.get("BENCH_WARMUP_MORE", "4"))
# Load on a freshly started replica topology before its usual warm-up: ten JVMs share the machine.
TOPOLOGY_WARMUP = os.environ.get("BENCH_TOPOLOGY_WARMUP", "240s")
WARMUP_STEADY = 0.10
PEOPLE = int(os.environ.get("BENCH_PEOPLE", "2000"))
EVENTS = int(os.environ.get("BENCH_EVENTS", "1000000"))
PASSWORD = "bench password 0123"
OWNER = "bench-00001"
SCHEME = "agro"
BIG_REPO = "big"
APPEND_REPO = "appends"


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


FAILURES = []  # what made die() stop, for the report of a run that goes on without that scenario


def die(message):
    log("bench:", message)
    FAILURES.append(message)
    sys.exit(1)


def http(method, url, body=None, headers=None, form=None, expect=None, timeout=120):
    headers = dict(headers or {})
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    elif isinstance(body, (dict, list)):
        data = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    elif body is not None:
        data = body if isinstance(body, bytes) else body.encode()
    for attempt in range(5):
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text, out_headers = response.status, response.read().decode("utf-8", "replace"), response.headers
        except urllib.error.HTTPError as e:
            status, text, out_headers = e.code, e.read().decode("utf-8", "replace"), e.headers
        # 503 with Retry-After is the platform's "try again": a client retries, and so does the seeding.
        if status != 503 or attempt == 4:
            break
        log(f"bench: {method} {url} answered 503; retrying")
        time.sleep(float(out_headers.get("Retry-After", "1")))
    if expect is not None and status not in expect:
        die(f"{method} {url} answered {status}: {text[:300]}")
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = text
    return status, parsed, out_headers


def basic(client_id, secret):
    return "Basic " + base64.b64encode(f"{urllib.parse.quote(client_id)}:{urllib.parse.quote(secret)}".encode()).decode()


def sql(query, db=DB):
    out = subprocess.run(["psql", db, "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-c", query],
                         capture_output=True, text=True)
    if out.returncode != 0:
        die(f"SQL failed: {out.stderr.strip()}\n{query[:200]}")
    return out.stdout.strip()


def await_condition(check, timeout_seconds, failure):
    """Polls `check` every quarter second until it is true; dies after `timeout_seconds`, saying
    `failure` (or what it returns then, when it is a function)."""
    deadline = time.time() + timeout_seconds
    while not check():
        if time.time() > deadline:
            die(failure() if callable(failure) else failure)
        time.sleep(0.25)


def database_named(url):
    """A postgresql:// URL's server and database, HOST:PORT/NAME, without its user and password."""
    parts = urllib.parse.urlparse(url)
    return f"{parts.hostname or '127.0.0.1'}:{parts.port or 5432}/{parts.path.lstrip('/')}"


def write_lines(name, values):
    STATE.mkdir(parents=True, exist_ok=True)
    path = STATE / name
    path.write_text("\n".join(values) + "\n")
    return path


def read_state():
    path = STATE / "state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save_state(state):
    STATE.mkdir(parents=True, exist_ok=True)
    (STATE / "state.json").write_text(json.dumps(state, indent=2))


def parallel(function, items, workers=4):
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(function, items))


def lines(name):
    return str(STATE / name)


def first_line(name):
    path = STATE / name
    return path.read_text().split("\n", 1)[0] if path.exists() else ""


def username(i):
    return f"bench-{i:05d}"


def password_grant(user, client_id, secret, scope="user"):
    status, body, _ = http("POST", f"{API}/oauth/token", headers={"Accept": "application/json",
                           "Authorization": basic(client_id, secret)},
                           form={"grant_type": "password", "username": user, "password": PASSWORD, "scope": scope})
    if status != 200:
        die(f"password grant for {user} answered {status}: {body}")
    return body


def owner_token(scope="user write"):
    return http("POST", f"{API}/oauth/token", headers={"Accept": "application/json"}, expect=[200],
                form={"grant_type": "password", "username": OWNER, "password": PASSWORD, "scope": scope})[1]["access_token"]
