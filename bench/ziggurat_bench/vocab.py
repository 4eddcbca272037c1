"""The vocabulary: the synthetic AGROVOC-sized scheme (generated, imported through the API, its
modification times spread), the import scenario, and the reading scenarios."""
import json
import subprocess
import sys
import time
import urllib.parse

from .common import (API, BENCH, DB, GATEWAY, GATEWAY_PREFIX, OWNER, RUNS, SCHEME, STATE, await_condition,
                     database_named, die, http,
                     log, owner_token, save_state, sql, write_lines)
from .targets import floor, get


def vocabulary_file():
    path = STATE / "agro.ttl"
    if not path.exists():
        log("seed: generating the 40,000-concept vocabulary")
        STATE.mkdir(parents=True, exist_ok=True)
        with path.open("w") as out:
            subprocess.run([sys.executable, str(BENCH / "generate-vocabulary.py")], stdout=out, check=True)
    return path


# The import job's states (api/openapi.json, ImportJob.state): queued and running, then one of these.
IMPORT_ENDED = ("succeeded", "failed")
IMPORT_WAIT_SECONDS = 600


def import_vocabulary(token, slug):
    """Creates the scheme, uploads the document, waits for the job: seconds from upload to done, and
    the job as its resource last showed it. The upload answers 202 with the job queued; the concepts
    are written by a background worker, and the job's resource (the answer's Location) tells when
    that ended: at most IMPORT_WAIT_SECONDS, with its progress in the log every half minute."""
    auth = {"Authorization": f"Bearer {token}"}
    http("POST", f"{API}/{OWNER}/vocab/schemes", headers=auth, expect=[201, 409, 422],
         body={"slug": slug, "title": f"Synthetic vocabulary {slug}"})
    document = vocabulary_file().read_bytes()
    started = time.time()
    status, job, headers = http("POST", f"{API}/{OWNER}/vocab/schemes/{slug}/import", body=document,
                                headers={**auth, "Content-Type": "text/turtle"}, timeout=300)
    if status != 202:
        die(f"import answered {status}: {job}")
    location = headers["Location"]
    url = location if location.startswith("http") else GATEWAY + location
    told = [started]

    def finished():
        nonlocal job
        _, job, _ = http("GET", url, headers=auth, expect=[200])
        if time.time() - told[0] >= 30:
            told[0] = time.time()
            log(f"   (import {url}: {progress(job)}, {time.time() - started:.0f} s)")
        return job.get("state") in IMPORT_ENDED
    await_condition(finished, IMPORT_WAIT_SECONDS, lambda: f"the import {url} did not end in {IMPORT_WAIT_SECONDS} s: "
                    f"{progress(job)}")
    elapsed = time.time() - started
    if job.get("state") != "succeeded":
        die(f"import ended {job.get('state')}: {json.dumps(job)[:500]}")
    return elapsed, job


def progress(job):
    """A job's state and concepts written, as its resource shows them."""
    total = job.get("concepts_total")
    return f"{job.get('state')}, {job.get('concepts_done', 0)} of {total if total is not None else '?'} concepts"


def seed_vocabulary(state):
    count = sql(f"SELECT count(*) FROM vocab.concept c JOIN vocab.scheme s ON s.id = c.scheme_id "
                f"WHERE s.namespace = '{OWNER}' AND s.slug = '{SCHEME}'") or "0"
    job = None
    if int(count) < 40000:
        log("seed: importing the vocabulary")
        elapsed, job = import_vocabulary(owner_token("user write update"), SCHEME)
        log(f"seed: vocabulary imported in {elapsed:.1f}s")
    # The numeric id, which the SQL below and the floor's scripts need, is the database's alone: the
    # API names a scheme by its slug (the job's "scheme": {"id": "agro", ...}).
    scheme_id = sql(f"SELECT id FROM vocab.scheme WHERE namespace = '{OWNER}' AND slug = '{SCHEME}'")
    if not scheme_id.isdigit():
        done = (f"its import (job {job.get('id')}) succeeded through the API with {job.get('concepts_total')} concepts, "
                "yet ") if job else ""
        die(f"the scheme {OWNER}/{SCHEME}: {done}the bench's database, {database_named(DB)} (BENCH_DB_URL), has "
            "no such scheme: the bench reads another database than the one the stack's services write to")
    if sql(f"SELECT count(DISTINCT updated_at) < 1000 FROM vocab.concept WHERE scheme_id = {scheme_id}") == "t":
        # One import gives every concept the same modification time, and since= would find nothing
        # or everything. A real vocabulary's concepts changed over years: spread them over one.
        log("seed: spreading the concepts' modification times over a year")
        sql(f"""UPDATE vocab.concept c SET updated_at = date_trunc('milliseconds', now() - interval '365 days'
                  + (o.n * interval '365 days' / 40000)) FROM (SELECT id, row_number() OVER (ORDER BY md5(id)) AS n
                  FROM vocab.concept WHERE scheme_id = {scheme_id}) o WHERE c.id = o.id;
                UPDATE vocab.scheme SET revision = nextval('vocab.scheme_revision') WHERE id = {scheme_id};
                ANALYZE vocab.concept""")
    ids = sql(f"SELECT id FROM vocab.concept WHERE scheme_id = {scheme_id} ORDER BY md5(id) LIMIT 2000").split()
    write_lines("concept-ids.txt", ids)
    # since= values spread over the scheme's history, each leaving more than a page after it.
    stamps = sql(f"SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') FROM vocab.concept "
                 f"WHERE scheme_id = {scheme_id} ORDER BY md5(id) LIMIT 200").split()
    write_lines("since.txt", [urllib.parse.quote(s, safe="") for s in stamps])
    # Search terms from the labels themselves: prefixes and whole words, in several scripts.
    bodies = sql(f"SELECT l.body FROM vocab.label l JOIN vocab.concept c ON c.id = l.concept_id "
                 f"WHERE c.scheme_id = {scheme_id} AND l.type = 'Preferred' ORDER BY md5(l.concept_id || l.language) LIMIT 1000")
    terms = []
    for k, body in enumerate(bodies.splitlines()):
        word = body.split()[0] if body.split() else body
        if len(word) < 4:
            continue
        terms.append(word[:4] + "*" if k % 3 else word)
    write_lines("search-terms.txt", [urllib.parse.quote(t, safe="*") for t in terms[:500]])
    state["scheme_id"] = int(scheme_id)
    save_state(state)


def run_import():
    log("== vocab-import: the 40,000-concept vocabulary through the API")
    token = owner_token("user write update admin")
    timings = []
    for k in range(RUNS):
        slug = f"agro-import-{k + 1}"
        http("DELETE", f"{API}/{OWNER}/vocab/schemes/{slug}", headers={"Authorization": f"Bearer {token}"})
        elapsed, job = import_vocabulary(token, slug)
        timings.append(elapsed)
        log(f"   run {k + 1}: {elapsed:.1f}s")
        http("DELETE", f"{API}/{OWNER}/vocab/schemes/{slug}", headers={"Authorization": f"Bearer {token}"})
    return {"title": "importing 40,000 concepts (20 languages, 768,736 labels, 38.6 MB Turtle)", "import": timings,
            "bars": [("import", 60)]}


def scenarios(state):
    gw = GATEWAY + GATEWAY_PREFIX
    scheme_path = f"/{OWNER}/vocab/schemes/{SCHEME}/concepts"
    return {
        "vocab-concept": {
            "title": "a concept (labels, notes, broader, narrower, matches)", "connections": 16,
            "bars": [("p99", "Ziggurat", 25)],
            "targets": [
                get("Ziggurat", "ziggurat", gw, f"{GATEWAY_PREFIX}{scheme_path}/{{}}", 16, "concept-ids.txt"),
                floor(state, "PostgreSQL floor", "concept.sql", 16),
            ]},
        "vocab-list": {
            "title": "a page of a scheme's concepts (30, with their labels)", "connections": 16,
            "bars": [("p99", "Ziggurat", 25)],
            "targets": [
                get("Ziggurat", "ziggurat", gw, f"{GATEWAY_PREFIX}{scheme_path}?page={{}}", 16, "pages.txt"),
                floor(state, "PostgreSQL floor", "concept-page.sql", 16),
            ]},
        "vocab-since": {
            "title": "a since= page of a scheme's concepts", "connections": 16,
            "bars": [("p99", "Ziggurat", 25)],
            "targets": [
                get("Ziggurat", "ziggurat", gw, f"{GATEWAY_PREFIX}{scheme_path}?since={{}}", 16, "since.txt"),
                floor(state, "PostgreSQL floor", "concept-since.sql", 16),
            ]},
        "vocab-search": {
            "title": "a label search (prefixes and whole words, accent- and case-insensitive)", "connections": 16,
            "bars": [("p99", "Ziggurat", 50)],
            "targets": [
                get("Ziggurat", "ziggurat", gw, f"{GATEWAY_PREFIX}/{OWNER}/vocab/concepts?q={{}}", 16, "search-terms.txt"),
                floor(state, "PostgreSQL floor", "concept-search.sql", 16),
            ]},
    }
