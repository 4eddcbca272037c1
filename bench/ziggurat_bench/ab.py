"""This build against the build of another commit (BENCH_AB_BASE), side by side on one machine:
the base's modules beside the launcher's, on its ports + 1000."""
import os
import subprocess
import urllib.parse

from .catalogue import scenarios
from .common import GATEWAY, ROOT, SERVICE_PORTS, await_condition, die, http, log
from .gateway import prime_gateway_caches
from .processes import running_command, running_env
from .rounds import run_targets
from .tokens import purge_run_tokens


# The scenarios the A/B comparison runs against both builds, and their targets of this build.
AB_SCENARIOS = {"client-credentials": "Ziggurat (auth-service)", "refresh": "Ziggurat (auth-service)",
                "introspection": "Ziggurat (auth-service)", "people": "Ziggurat through the gateway",
                "user": "Ziggurat through the gateway", "vocab-concept": "Ziggurat", "vocab-list": "Ziggurat",
                "vocab-search": "Ziggurat", "events-append": "Ziggurat", "events-newest": "Ziggurat"}
# The base build's stack listens on the launcher's ports + 1000.
AB_PORT_OFFSET = 1000


def ab_port(port):
    return port + AB_PORT_OFFSET


def ab_url(url):
    """A URL of the launcher's stack, pointed at the base build's stack."""
    parts = urllib.parse.urlparse(url)
    if parts.port in (8080, *SERVICE_PORTS.values()):
        return parts._replace(netloc=f"{parts.hostname}:{ab_port(parts.port)}").geturl()
    return url


def start_base_stack(rev):
    """The build of commit `rev`, from a worktree under .run/ab, beside the launcher's stack: the same
    database, keys and secrets (each module's environment is read from its running instance), on
    the ports + 1000, each module calling the base build's others. Returns the processes."""
    tree = ROOT / ".run" / "ab" / rev
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True,
                       stdout=subprocess.DEVNULL)
    modules = ["directory-service", "auth-service", "vocab-service", "events-service", "gateway"]
    jars = {m: tree / m / "target" / "quarkus-app" / "quarkus-run.jar" for m in modules}
    if not all(j.exists() for j in jars.values()):
        log(f"   (building {rev} in {tree}: a few minutes)")
        subprocess.run(["./mvnw", "-q", "-B", "package", "-DskipTests"], cwd=tree, check=True)
    directory = f"http://127.0.0.1:{ab_port(SERVICE_PORTS['directory-service'])}"
    processes = []
    for module in modules:
        env = running_env(module)
        env["QUARKUS_HTTP_PORT"] = str(ab_port(8080 if module == "gateway" else SERVICE_PORTS[module]))
        if module == "gateway":
            env["QUARKUS_MANAGEMENT_PORT"] = str(ab_port(8090))
            # The launcher's gateway holds its DPoP peer port (the launcher sets it): the base's is beside it.
            if "ZIGGURAT_GATEWAY_DPOP_PEER_PORT" in env:
                env["ZIGGURAT_GATEWAY_DPOP_PEER_PORT"] = str(ab_port(int(env["ZIGGURAT_GATEWAY_DPOP_PEER_PORT"])))
            for service, port in SERVICE_PORTS.items():
                env["ZIGGURAT_GATEWAY_UPSTREAMS_" + service.upper().replace("-", "_")] = f"http://127.0.0.1:{ab_port(port)}"
        else:
            # Both names of the directory's address: the base build may read either.
            env["QUARKUS_REST_CLIENT_DIRECTORY_URL"] = directory
            env["ZIGGURAT_DIRECTORY_URL"] = directory
        # The shared database may hold migrations newer than the base build: those it leaves alone.
        env["QUARKUS_FLYWAY_IGNORE_MIGRATION_PATTERNS"] = "*:future"
        log_file = ROOT / ".run" / "logs" / f"{module}-ab-{rev}.log"
        with open(log_file, "w") as out:
            processes.append(subprocess.Popen(running_command(module, jars[module]), cwd=ROOT / ".run", env=env,
                                              stdout=out, stderr=subprocess.STDOUT))
        health = ab_port(8090) if module == "gateway" else int(env["QUARKUS_HTTP_PORT"])

        def ready(port=health):
            try:
                return http("GET", f"http://127.0.0.1:{port}/q/health/ready", timeout=2)[0] == 200
            except OSError:
                return False

        try:
            await_condition(ready, 120, f"the base build's {module} did not get ready: see {log_file}")
        except SystemExit:
            # Those already started would outlive the run, on the ports the next one needs.
            for process in processes:
                process.terminate()
            raise
    log(f"   (the build of {rev} runs on ports {ab_port(8080)}-{ab_port(8084)})")
    return processes


def run_ab(state):
    """Each scenario of AB_SCENARIOS against this build and the build of BENCH_AB_BASE, side by side
    (alternating rounds, as every scenario): what a change cost or saved, measured in one run."""
    rev = os.environ.get("BENCH_AB_BASE")
    if not rev:
        die("ab compares with another build: BENCH_AB_BASE=<commit> bench/run ab")
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True,
                         check=True).stdout.strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    # Both builds start fresh: the launcher's stack served the seeding (thousands of password
    # grants, an import), which shaped its JIT's profiles, and the base's did not. Measured on
    # 2026-11-27: refresh 0.87x after the seeding, 1.10x with both stacks fresh.
    subprocess.run([str(ROOT / "ziggurat"), "down"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([str(ROOT / "ziggurat"), "up"], check=True, stdout=subprocess.DEVNULL)
    processes = start_base_stack(rev)
    results = {}
    try:
        catalogue = scenarios(state)
        chosen = os.environ.get("BENCH_AB_SCENARIOS", ",".join(AB_SCENARIOS)).split(",")
        for name, target_name in ((n, AB_SCENARIOS[n]) for n in chosen):
            scenario = catalogue[name]
            ours = dict(next(t for t in scenario["targets"] if t["name"] == target_name))
            ours["name"] = f"this build ({head})"
            base = dict(ours, name=f"base build ({rev})", url=ab_url(ours["url"]))
            if name == "user":
                base["prepare"] = lambda env: prime_gateway_caches(1, ab_url(GATEWAY))
            if name in ("client-credentials", "refresh", "introspection"):
                purge_run_tokens(state)
            results[f"ab {name}"] = run_targets(f"ab {name}", {
                "title": f"{scenario['title']}: {ours['name']} and {base['name']}", "connections": scenario["connections"],
                "bars": [("ratio", ours["name"], base["name"], 0.9)], "targets": [ours, base]})
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(30)
    return results
