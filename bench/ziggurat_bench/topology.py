"""`./ziggurat up` against `./ziggurat up --replicas 2` through the public port, one block per stack."""
import subprocess

from .common import APPEND_REPO, DURATION, GATEWAY, GATEWAY_PREFIX, OWNER, ROOT, RUNS, TOPOLOGY_WARMUP, lines, log
from .events import owner_write_token
from .gateway import prime_gateway_caches
from .load import log_sample, measure, warm_up


# The stacks the topology scenario compares: ./ziggurat up, and ./ziggurat up --replicas 2.
TOPOLOGIES = [(1, "one instance each, straight to PostgreSQL"),
              (2, "2 replicas each, HAProxy, PgBouncer (transaction)")]


def switch_stack(replicas):
    """./ziggurat down, then up with the given replicas (1: the plain stack). True when it restarted."""
    running = int((ROOT / ".run" / "replicas").read_text()) if (ROOT / ".run" / "replicas").exists() else 1
    if running == replicas and (ROOT / ".run" / "pids" / ("gateway.pid" if replicas == 1 else "gateway-1.pid")).exists():
        return False
    log(f"   (./ziggurat up{f' --replicas {replicas}' if replicas > 1 else ''})")
    subprocess.run([str(ROOT / "ziggurat"), "down"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([str(ROOT / "ziggurat"), "up", *(["--replicas", str(replicas)] if replicas > 1 else [])],
                   check=True, stdout=subprocess.DEVNULL)
    return True


def run_topology(state):
    """The production topology against the plain stack, on the public port: GET /user with cached
    tokens (1,000 people) and appends, the plain stack first, then the replicas after a longer
    warm-up (BENCH_TOPOLOGY_WARMUP per request), then the plain stack is started again."""
    gw = GATEWAY + GATEWAY_PREFIX
    requests = {
        "topology-user": ("GET /user with a cached token (1,000 people), plain stack and production topology", 32,
                          lambda label: {"name": label, "system": "ziggurat", "url": gw, "connections": 32,
                                         "env": {"BENCH_METHOD": "GET", "BENCH_PATH": f"{GATEWAY_PREFIX}/user",
                                                 "BENCH_HEADERS": "Authorization: Bearer {}",
                                                 "BENCH_LINES": lines("access-tokens.txt")}}),
        "topology-append": ("appending a data event, plain stack and production topology", 32,
                            lambda label: {"name": label, "system": "ziggurat", "url": gw, "connections": 32, "env": {
                                "BENCH_METHOD": "POST",
                                "BENCH_PATH": f"{GATEWAY_PREFIX}/{OWNER}/repositories/{APPEND_REPO}/data/events",
                                "BENCH_BODY": '{"kind":"API-Request","note":"bench append"}',
                                "BENCH_HEADERS": "Content-Type: application/json|Authorization: Bearer "
                                                 + owner_write_token(state)}}),
    }
    log("== topology: the plain stack and ./ziggurat up --replicas 2, through the public port")
    samples = {(r, label): [] for r in requests for _, label in TOPOLOGIES}
    try:
        # One block per stack, not alternating rounds: the stacks cannot listen at once, and every
        # switch restarts ten JVMs whose JIT takes minutes to settle on a small machine (GET /user
        # through the replicas climbed from 104/s to about 2,000/s over five minutes of load),
        # which would weigh far more than the machine's noise between two blocks.
        for replicas, label in TOPOLOGIES:
            switch_stack(replicas)
            targets = {r: make(label) for r, (_, _, make) in requests.items()}
            prime_gateway_caches(replicas)
            for target in targets.values():
                if replicas > 1:
                    measure(target, TOPOLOGY_WARMUP)
                warm_up(target)
            for _ in range(RUNS):
                for r, target in targets.items():
                    sample = measure(target, DURATION)
                    samples[(r, label)].append(sample)
                    log_sample(target, sample)
    finally:
        switch_stack(1)
    return {r: {"title": title, "connections": connections, "bars": [],
                "targets": [{"name": label, "system": "ziggurat", "samples": samples[(r, label)]}
                            for _, label in TOPOLOGIES]}
            for r, (title, connections, _) in requests.items()}
