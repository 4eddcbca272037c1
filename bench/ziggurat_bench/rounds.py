"""A scenario's targets measured side by side: a warm-up each, then alternating rounds."""
from .common import DURATION, RUNS, log
from .cpu_profile import profile_gateway_run
from .load import log_sample, measure, warm_up


def run_targets(name, scenario, profile_gateway=False):
    """Warm-up for each target, then BENCH_RUNS rounds, the targets' order reversed every other round.
    With profile_gateway, one more run of the gateway's target, not counted, under a profile of the
    launcher's gateway (its CPU by part, in the report): where the gateway is measured against nginx,
    what limits the hop is the gateway's CPU."""
    targets = scenario["targets"]
    samples = {t["name"]: [] for t in targets}
    log(f"== {name}: {scenario['title']}")
    # Warmed up in the reverse of the first round's order, so each target's first measured run
    # follows its own warm-up no later than its later runs follow their previous one. In the
    # order of the first round, this build's vocabulary pages sat idle through the base build's
    # whole warm-up, past vocab-service's 30 s expiry, and its first run rendered them again.
    for target in reversed(targets):
        warm_up(target)
    for round_number in range(RUNS):
        # Alternate the order, so neither system always runs on the warmer machine.
        ordered = targets if round_number % 2 == 0 else list(reversed(targets))
        for target in ordered:
            sample = measure(target, DURATION)
            samples[target["name"]].append(sample)
            log_sample(target, sample)
    details = scenario["details"]() if scenario.get("details") else []
    if profile_gateway:
        details += profile_gateway_run(name, next(t for t in targets if t["name"] == "Ziggurat through the gateway"))
    return {"title": scenario["title"], "connections": scenario["connections"], "bars": scenario["bars"],
            "details": details,
            "targets": [{"name": t["name"], "system": t["system"], "samples": samples[t["name"]]}
                        for t in targets]}
