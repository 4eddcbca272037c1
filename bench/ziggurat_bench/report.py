"""The report: a table per scenario with its bars as PASS or MISS, the chart, start-up and memory;
bench/results/bench-<time>.md, .png and .json."""
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from .common import DURATION, RESULTS, ROOT, RUNS, WARMUP, WARMUP_MORE, WARMUP_STEADY, log
from .startup import IDLE_BAR_MIB, IDLE_SETTLE_SECONDS, LOADED_BAR_MIB, STARTUP_BAR_S, startup_and_memory


def median(values):
    return statistics.median(values) if values else 0.0


def summarize(target):
    samples = target["samples"]
    return {"rps": median([s["rps"] for s in samples]), "p50": median([s["p50"] for s in samples]),
            "p99": median([s["p99"] for s in samples]), "errors": sum(s["errors"] for s in samples),
            "requests": sum(s["requests"] for s in samples)}


def verdicts(result):
    """Each bar of a scenario: (text, passed)."""
    if "failed" in result:
        return [(f"the scenario did not finish: {result['failed'][:300]}", False)]
    if "import" in result:
        m = median(result["import"])
        return [(f"import under 60 s: median {m:.1f} s", m < 60)]
    if "startup" in result:
        out = []
        for module, row in result["startup"].items():
            ready, idle, loaded = median(row["ready"]), median(row["idle"]), row.get("after")
            out.append((f"{module} ready in {ready:.2f} s (bar < {STARTUP_BAR_S:g} s)", ready < STARTUP_BAR_S))
            out.append((f"{module} {idle:.0f} MiB resident idle (bar < {IDLE_BAR_MIB} MiB)", idle < IDLE_BAR_MIB))
            if row.get("loaded") is not None:
                out.append((f"{module} {row['loaded']:.0f} MiB resident {IDLE_SETTLE_SECONDS} s after the scenarios on the plain stack "
                            f"(bar < {LOADED_BAR_MIB} MiB)", row["loaded"] < LOADED_BAR_MIB))
            if loaded is not None:
                out.append((f"{module} {loaded:.0f} MiB resident at the end of the run, {IDLE_SETTLE_SECONDS} s idle (bar < {LOADED_BAR_MIB} MiB)",
                            loaded < LOADED_BAR_MIB))
        return out
    summary = {t["name"]: summarize(t) for t in result["targets"]}
    out = []
    for bar in result["bars"]:
        if bar[0] == "ratio":
            _, ours, theirs, needed = bar
            ratio = summary[ours]["rps"] / summary[theirs]["rps"] if summary[theirs]["rps"] else 0
            out.append((f"{ours} / {theirs} throughput: {ratio:.2f}× (bar ≥ {needed:g}×)", ratio >= needed))
        elif bar[0] == "p99":
            _, who, limit = bar
            out.append((f"{who} p99 {summary[who]['p99']:.1f} ms (bar < {limit} ms)", summary[who]["p99"] < limit))
        elif bar[0] == "p99-beside":
            _, who, other, plus = bar
            limit = summary[other]["p99"] + plus
            out.append((f"{who} p99 {summary[who]['p99']:.1f} ms beside {other}'s {summary[other]['p99']:.1f} ms "
                        f"(bar ≤ it + {plus:g} ms)", summary[who]["p99"] <= limit))
        elif bar[0] == "rps":
            _, who, needed = bar
            out.append((f"{who} {summary[who]['rps']:.0f}/s (bar ≥ {needed}/s)", summary[who]["rps"] >= needed))
    for name, s in summary.items():
        if s["errors"]:
            out.append((f"{name}: {s['errors']} errors", False))
    return out


def report(results, notes_file=None):
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    RESULTS.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    md = [f"# Benchmark report {stamp}", "",
          f"Commit `{commit}`{' (with uncommitted changes)' if dirty else ''}. Machine: {os.cpu_count()} cores, "
          f"load generator (wrk, pgbench) on the same machine. {RUNS} measured runs of {DURATION} per target after a "
          f"{WARMUP} warm-up (then up to {WARMUP_MORE} runs more, until two in a row agree within "
          f"{WARMUP_STEADY:.0%}), targets alternating in each round; the tables give medians (errors: the sum).", ""]
    passed_all = True
    chart = []
    for name, result in results.items():
        md += [f"## {name}: {result['title']}", ""]
        if "failed" in result:
            pass
        elif "import" in result:
            md += ["| run | seconds |", "|---|---|"]
            md += [f"| {k + 1} | {t:.1f} |" for k, t in enumerate(result["import"])]
        elif "startup" in result:
            md += ["| service | JVM | ready s (median; runs) | RSS idle MiB | RSS after the plain stack's scenarios "
                   f"({IDLE_SETTLE_SECONDS} s idle) MiB | peak RSS over them MiB | RSS at the end of the run ({IDLE_SETTLE_SECONDS} s idle) MiB |",
                   "|---|---|---|---|---|---|---|"]
            for module, row in result["startup"].items():
                runs = ", ".join(f"{r:.2f}" for r in row["ready"])
                loaded, peak = (f"{row[k]:.0f}" if row.get(k) is not None else "-" for k in ("loaded", "peak"))
                md.append(f"| {module} | `{row['command']}` | {median(row['ready']):.2f} ({runs}) | "
                          f"{median(row['idle']):.0f} | {loaded} | {peak} | "
                          f"{row['after']:.0f} |")
            md += ["", "Where the time goes: one more start of each, with Quarkus's per-step timing of its runtime "
                   "start (`-Dquarkus.debug.print-startup-times=true`; its own \"started in\", then the slowest "
                   "steps in ms). The CPU seconds its threads had used when it was first ready, beside that "
                   "start's wall time to ready (`/proc/<pid>/task`; on two cores, CPU near twice the wall time "
                   "means the start waited for a core). What the idle memory is made of (MiB, from "
                   "`/proc/<pid>/smaps`, the heap's range from `jcmd GC.heap_info`).", "",
                   "| service | started in s | slowest steps (ms) | ready s: CPU s until then | idle resident: parts (MiB) |",
                   "|---|---|---|---|---|"]
            for module, row in result["startup"].items():
                profile, parts = row.get("steps") or {}, row.get("resident") or {}
                steps = ", ".join(f"{step} {ms}" for step, ms in profile.get("steps", []))
                cpu = ", ".join(f"{name} {s:.2f}" for name, s in (profile.get("cpu") or {}).items())
                ready = f"{profile['ready_s']:.2f}: {cpu}" if profile.get("ready_s") else "-"
                md.append(f"| {module} | {profile.get('started_s') or '?'} | {steps} | {ready} | "
                          + ", ".join(f"{name} {mib}" for name, mib in parts.items()) + " |")
        else:
            md += [f"{result['connections']} connections.", "",
                   "| target | req/s | p50 ms | p99 ms | errors | runs (req/s) |", "|---|---|---|---|---|---|"]
            for target in result["targets"]:
                s = summarize(target)
                runs = ", ".join(f"{x['rps']:.0f}" for x in target["samples"])
                md.append(f"| {target['name']} | {s['rps']:.0f} | {s['p50']:.1f} | {s['p99']:.1f} | {s['errors']} | {runs} |")
                chart.append((name, target["name"], s["rps"], target["system"]))
        md.append("")
        if result.get("details"):
            md += [*result["details"], ""]
        for text, ok in verdicts(result):
            passed_all &= ok
            md.append(f"- {'PASS' if ok else 'MISS'}: {text}")
        md.append("")
    md += ["## Start-up and memory", "", "Start-up as each process logged it; resident memory after the run.", "",
           "| process | start-up s | RSS MiB |", "|---|---|---|"]
    md += [f"| {a} | {b} | {c} |" for a, b, c in startup_and_memory()]
    md.append("")
    if notes_file and Path(notes_file).exists():
        md += [Path(notes_file).read_text().rstrip(), ""]
    md += [f"Overall: {'every bar reached' if passed_all else 'some bars missed (MISS above)'}.", ""]
    out = RESULTS / f"bench-{stamp}"
    (out.with_suffix(".md")).write_text("\n".join(md))
    if chart and shutil.which("gnuplot"):
        draw(chart, out.with_suffix(".png"))
        md.insert(4, f"![throughput per target](bench-{stamp}.png)\n")
        (out.with_suffix(".md")).write_text("\n".join(md))
    (RESULTS / f"bench-{stamp}.json").write_text(json.dumps(results, indent=1))
    log(f"report: {out.with_suffix('.md')}")
    return passed_all


def draw(chart, png):
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / "data.txt"
        colours = {"ziggurat": "0x3b6ea8", "keycloak": "0xd9822b", "PostgreSQL floor": "0x9a9a9a"}
        data.write_text("".join(f"\"{s}\\n{t}\" {r:.1f} {colours.get(system, '0x3b6ea8')}\n"
                                for s, t, r, system in chart))
        script = f"""
set terminal pngcairo size {max(900, 90 * len(chart))},560 font ',9'
set output '{png}'
set title 'Throughput per target, median per second, log scale (blue: Ziggurat, orange: Keycloak, grey: PostgreSQL alone)'
set style fill solid 0.8
set boxwidth 0.7
set logscale y
set yrange [10:*]
set grid ytics
set xtics rotate by -50 font ',8'
set bmargin 12
unset key
plot '{data}' using 0:2:3:xtic(1) with boxes lc rgb variable, '' using 0:2:(sprintf('%.0f', $2)) with labels offset 0,0.7 font ',8'
"""
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
