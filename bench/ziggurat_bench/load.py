"""One measurement of a target: wrk for HTTP, pgbench for the floor; and the warm-up before a
target's measured runs."""
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from .common import BENCH, DB, DURATION, WARMUP, WARMUP_MORE, WARMUP_STEADY, die, log


def seconds(text):
    return float(text[:-1]) * {"s": 1, "m": 60}[text[-1]] if text[-1] in "sm" else float(text)


def latency_ms(value):
    number, unit = re.match(r"([\d.]+)(us|ms|s|m)", value).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def wrk(target, duration):
    """Runs one wrk measurement; returns {rps, p50, p99, errors, requests}."""
    env = dict(os.environ)
    env.update({k: str(v) for k, v in target.get("env", {}).items()})
    script = target.get("script", "rotate.lua")
    threads = 2
    env["BENCH_THREADS"] = str(threads)
    env["BENCH_RUN_SECONDS"] = str(int(seconds(duration)))
    if callable(target.get("prepare")):
        target["prepare"](env)
    command = ["wrk", "-t", str(threads), "-c", str(target["connections"]), "-d", duration, "--latency",
               "--timeout", "10s", "-s", str(BENCH / "wrk" / script), target["url"]]
    out = subprocess.run(command, env=env, capture_output=True, text=True)
    text = out.stdout
    if out.returncode != 0 or "Requests/sec" not in text:
        die(f"wrk failed for {target['name']}: {out.stderr or text}")
    percentiles = dict(re.findall(r"^\s+(\d+)%\s+(\S+)\s*$", text, re.M))
    requests = int(re.search(r"(\d+) requests in", text).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, socket.groups())) if socket else 0)
    p99 = latency_ms(percentiles["99"])
    settle(p99)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
            "p50": latency_ms(percentiles["50"]), "p99": p99,
            "errors": errors, "requests": requests}


def settle(p99_ms):
    """The next run starts once the requests this one left behind are done. wrk ends a run by
    closing its connections mid-request, and a service still finishes what it had started: a
    password check, once counted by the throttle, runs to its end. Measured at once, the next
    run's 32 checks found the 32 left over still hashing, past directory-service's queue of 32
    (hashing-queue), and a fifth to a half of its answers were that queue's fast 503s
    (bench-20261129T154902Z). Twice the run's p99 covers them; scenarios answered in milliseconds
    wait milliseconds."""
    time.sleep(min(5.0, max(0.05, 2 * p99_ms / 1000)))


def pgbench(target, duration):
    script = BENCH / "floor" / target["floor"]
    command = ["pgbench", "-n", "-M", "prepared", "-c", str(target["connections"]), "-j", "2", "-T",
               str(int(seconds(duration))), "-f", str(script)]
    for key, value in target.get("vars", {}).items():
        command += ["-D", f"{key}={value}"]
    with tempfile.TemporaryDirectory() as work:
        command += ["--log", "--log-prefix", f"{work}/tx"]
        # The whole URL as the database name: libpq takes its host, port and user from it
        # (BENCH_DB_URL may name another port than 5432).
        out = subprocess.run(command + [DB], capture_output=True, text=True, cwd=work,
                             env={**os.environ, "PGHOST": "127.0.0.1", "PGUSER": "postgres"})
        if out.returncode != 0:
            die(f"pgbench failed for {target['name']}: {out.stderr}")
        latencies = []
        for log_file in Path(work).glob("tx*"):
            for line in log_file.read_text().splitlines():
                fields = line.split()
                latencies.append(int(fields[2]) / 1000.0)
    latencies.sort()
    tps = float(re.search(r"tps = ([\d.]+)", out.stdout).group(1))
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else 0.0
    failed = re.search(r"number of failed transactions: (\d+)", out.stdout)
    return {"rps": tps, "p50": pick(0.5), "p99": pick(0.99), "errors": int(failed.group(1)) if failed else 0,
            "requests": len(latencies)}


def measure(target, duration):
    return pgbench(target, duration) if target.get("floor") else wrk(target, duration)


def warm_up(target):
    """BENCH_WARMUP of load, then runs of BENCH_DURATION until two in a row agree within 10% (at most
    BENCH_WARMUP_MORE): a service is measured once its JIT has settled. On a slow machine 25 s was not
    enough: events-service still spent a fifth of its CPU compiling two minutes into its load, and
    its throughput climbed from 838 to 1,950/s over six 10 s runs. The floor (pgbench) needs none."""
    previous = measure(target, WARMUP)["rps"]
    if target.get("floor"):
        return
    for _ in range(WARMUP_MORE):
        current = measure(target, DURATION)["rps"]
        if abs(current - previous) <= WARMUP_STEADY * max(current, previous):
            return
        previous = current


def log_sample(target, sample):
    log(f"   {target['name']}: {sample['rps']:.0f}/s p50 {sample['p50']:.1f} ms p99 "
        f"{sample['p99']:.1f} ms errors {sample['errors']}")
