"""Appends to a repository with 100 webhook subscriptions, whose receiver (in this process) holds
each delivery 30 s, beside appends to one with none."""
import subprocess
import time

from .common import API, APPEND_REPO, DB, OWNER, die, http, owner_token, sql
from .events import append_target


HOOKED_REPO = "hooked"
WEBHOOK_SUBSCRIPTIONS = 100
_webhook_receiver = {}


def webhook_receiver_url():
    """A receiver on loopback, in this process, for the run, that sleeps 30 s on every delivery before
    it answers 204 (the issue's slow receiver): what is measured is the recording of events beside
    100 subscriptions whose receivers hold their deliveries, not the sending of 100 times as many."""
    if "url" not in _webhook_receiver:
        import http.server
        import threading

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                time.sleep(30)
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        _webhook_receiver["url"] = f"http://127.0.0.1:{server.server_address[1]}/hook"
    return _webhook_receiver["url"]


def webhook_outbox_emptied(env):
    """Each run starts with no delivery queued: what the last run queued would be sent meanwhile.
    The events' log and the lanes' cursors (V10) go with them, or the last run's backlog would be
    queued at the start of this one (a base build of an A/B may be older than V10)."""
    lanes = ", events.webhook_event_log, events.webhook_event_log_end, events.webhook_lane_cursor" \
        if sql("SELECT to_regclass('events.webhook_lane_cursor') IS NOT NULL") == "t" else ""
    statement = "TRUNCATE events.webhook_attempt, events.webhook_delivery, events.webhook_fanout" + lanes
    # The TRUNCATE takes its tables' locks one after another while events-service's fan-out and
    # deliveries (still busy with the last run's queue) take theirs in their own order: PostgreSQL
    # may break the deadlock by failing the TRUNCATE, which then goes again (nothing was done).
    for attempt in range(5):
        out = subprocess.run(["psql", DB, "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-c", statement],
                             capture_output=True, text=True)
        if out.returncode == 0:
            return
        if "deadlock detected" not in out.stderr:
            break
        time.sleep(0.5 * (attempt + 1))
    die(f"SQL failed: {out.stderr.strip()}\n{statement[:200]}")


def webhook_subscriptions(env):
    """The hooked repository's 100 subscriptions, to the receiver, made through the API once."""
    webhook_outbox_emptied(env)
    token = owner_token("user write admin")
    path = f"{API}/{OWNER}/repositories/{HOOKED_REPO}/webhooks"
    url = webhook_receiver_url()
    existing = http("GET", path, headers={"Authorization": f"Bearer {token}"}, expect=[200])[1]
    for w in existing:
        # Made by an earlier run, whose receiver listened elsewhere.
        if w["target_url"] != url or not w["active"]:
            http("PATCH", f"{path}/{w['id']}", body={"url": url, "active": True},
                 headers={"Authorization": f"Bearer {token}"}, expect=[200])
    for _ in range(WEBHOOK_SUBSCRIPTIONS - len(existing)):
        status, answer, _ = http("POST", path, body={"url": url, "events": ["API-Request"]},
                              headers={"Authorization": f"Bearer {token}"})
        if status != 201:
            die(f"cannot subscribe a webhook ({status} {answer}): start the stack with "
                "ZIGGURAT_EVENTS_WEBHOOKS_ALLOWED_NETWORKS=127.0.0.1/32 ./ziggurat up")


def scenarios(state):
    return {
        # Webhooks (#55): the statement that records an event also queues a delivery for each
        # subscription that takes it; the delivery workers run meanwhile on the same replicas.
        "webhook-appends": {
            "title": "appending a data event to a repository with 100 webhook subscriptions (receivers that sleep 30 s) "
                     "beside one with none",
            "connections": 32,
            "bars": [],
            "targets": [
                dict(append_target("no subscription", APPEND_REPO, state), prepare=webhook_outbox_emptied),
                dict(append_target("100 subscriptions", HOOKED_REPO, state), prepare=webhook_subscriptions),
            ]},
    }
