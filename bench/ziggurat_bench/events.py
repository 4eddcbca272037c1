"""Data events: the million-event repository (written with SQL), appends through the gateway, and
the newest page."""
from .common import (API, APPEND_REPO, BIG_REPO, DB, EVENTS, GATEWAY, GATEWAY_PREFIX, OWNER, database_named, die,
                     http, log, owner_token, sql)
from .targets import floor, get


def seed_events(state):
    token = owner_token("user write")
    auth = {"Authorization": f"Bearer {token}"}
    repo = sql(f"SELECT id FROM events.repository WHERE namespace = '{OWNER}' AND name = '{BIG_REPO}'")
    if not repo:
        http("POST", f"{API}/{OWNER}/repositories/{BIG_REPO}/data/events", headers=auth, expect=[201],
             body={"kind": "FileUpload", "note": "first"})
        repo = sql(f"SELECT id FROM events.repository WHERE namespace = '{OWNER}' AND name = '{BIG_REPO}'")
    if not repo.isdigit():
        die(f"the repository {OWNER}/{BIG_REPO}: its first event was appended through the API, yet the bench's "
            f"database, {database_named(DB)} (BENCH_DB_URL), has no such repository: the bench reads another "
            "database than the one the stack's services write to")
    have = int(sql(f"SELECT count(*) FROM events.data_event WHERE repository_id = {repo}"))
    if have < EVENTS:
        # A million appends through the API would take a quarter of an hour: the rows are written
        # straight into the events schema, shaped like the API's own (creator, kinds, notes).
        log(f"seed: writing {EVENTS - have} data events into {OWNER}/{BIG_REPO} with SQL")
        creator = sql(f"SELECT creator_id FROM events.data_event WHERE repository_id = {repo} LIMIT 1")
        sql(f"""INSERT INTO events.data_event (repository_id, kind, note, creator_id, creator_username, client_id,
                commits_count, created_at)
                SELECT {repo}, (ARRAY['FileUpload','API-Request','Fork'])[1 + g % 3], 'synthetic event ' || g,
                       {creator}, '{OWNER}', NULL, 0,
                       date_trunc('milliseconds', now() - interval '30 days' + g * interval '2 milliseconds')
                FROM generate_series(1, {EVENTS - have}) g""")
        sql("ANALYZE events.data_event")
    http("POST", f"{API}/{OWNER}/repositories/{APPEND_REPO}/data/events", headers=auth, expect=[201],
         body={"kind": "API-Request", "note": "first"})


_write_token = {}


def append_target(name, repository, state):
    """wrk POSTing data events to one of the owner's repositories through the gateway."""
    return {"name": name, "system": "ziggurat", "url": GATEWAY + GATEWAY_PREFIX, "connections": 32, "env": {
        "BENCH_METHOD": "POST", "BENCH_PATH": f"{GATEWAY_PREFIX}/{OWNER}/repositories/{repository}/data/events",
        "BENCH_BODY": '{"kind":"API-Request","note":"bench append"}',
        "BENCH_HEADERS": f"Content-Type: application/json|Authorization: Bearer {owner_write_token(state)}"}}


def owner_write_token(state):
    if "token" not in _write_token and state.get("client_id"):
        _write_token["token"] = owner_token("user write")
    return _write_token.get("token", "")


def scenarios(state):
    gw = GATEWAY + GATEWAY_PREFIX
    return {
        "events-append": {
            "title": "appending a data event (one commit each)", "connections": 32,
            "bars": [("rps", "Ziggurat", 1000)],
            "targets": [
                append_target("Ziggurat", APPEND_REPO, state),
                floor(state, "PostgreSQL floor", "event-insert.sql", 32),
            ]},
        "events-newest": {
            "title": "the newest page of a 1,000,000-event repository", "connections": 16,
            "bars": [("p99", "Ziggurat", 20)],
            "targets": [
                get("Ziggurat", "ziggurat", gw, f"{GATEWAY_PREFIX}/{OWNER}/repositories/{BIG_REPO}/data/events", 16),
                floor(state, "PostgreSQL floor", "event-newest.sql", 16),
            ]},
    }
