"""Running the chosen scenarios, each of which may fail alone: the run goes on without it."""
from .ab import run_ab
from .catalogue import SPECIAL_SCENARIOS, scenarios
from .common import FAILURES, die
from .gateway import start_extra_gateway
from .peers import start_nginx
from .rounds import run_targets
from .startup import IDLE_SETTLE_SECONDS, STARTS, record_settled_memory, run_startup
from .tokens import purge_run_tokens
from .topology import run_topology
from .vocab import run_import


def run_scenarios(names, state):
    catalogue = scenarios(state)
    unknown = [n for n in names if n not in catalogue and n not in SPECIAL_SCENARIOS]
    if unknown:
        die(f"unknown scenario(s) {', '.join(unknown)}; see: bench/run list")
    results = {}
    for name in names:
        try:
            run_scenario(name, catalogue, state, results)
        except SystemExit:
            # One scenario that cannot finish (the reason is logged above) must not lose the
            # others' measurements of a long run: it is reported as a failure, and the run goes on.
            results[name] = {"title": "did not finish", "failed": FAILURES[-1] if FAILURES else "see the run's log"}
    return results


def run_scenario(name, catalogue, state, results):
    """One scenario of the run; its results go into `results`."""
    if name == "vocab-import":
        results[name] = run_import()
        return
    if name == "startup":
        results[name] = {"title": f"each service restarted alone, {STARTS} times; ready, and resident "
                                   f"after {IDLE_SETTLE_SECONDS} s idle", "startup": run_startup()}
        return
    if name == "topology":
        record_settled_memory(results, "loaded", "peak")
        results.update(run_topology(state))
        return
    if name == "ab":
        results.update(run_ab(state))
        return
    scenario = catalogue[name]
    if scenario.get("needs") is False:
        # What it measures was not seeded (the seeding logged why): reported, never measured half.
        results[name] = {"title": scenario["title"], "failed": scenario.get("needs_why", "not seeded")}
        return
    if name in ("client-credentials", "refresh", "introspection", "password"):
        purge_run_tokens(state)
    extra = [start_extra_gateway(t["gateway"]) for t in scenario["targets"] if t.get("gateway")]
    if any(t.get("nginx") for t in scenario["targets"]):
        extra.append(start_nginx())
    try:
        results[name] = run_targets(name, scenario, profile_gateway=any(t.get("nginx") for t in scenario["targets"]))
    finally:
        for process in extra:
            process.terminate()
            process.wait(30)
