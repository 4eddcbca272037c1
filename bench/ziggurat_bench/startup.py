"""Start-up and memory: each service restarted alone and timed to ready, where its start goes
(Quarkus's steps, CPU by thread group), what its resident memory is made of, and its memory after
the scenarios."""
import os
import re
import subprocess
import time
from pathlib import Path

from .common import ROOT, SERVICE_PORTS, log
from .processes import launcher_instance, launcher_peak_rss_mib, launcher_pid, launcher_rss_mib, restart, rss_mib


STARTUP_MODULES = os.environ.get("BENCH_STARTUP_MODULES",
                                 "directory-service auth-service vocab-service events-service gateway").split()
STARTS = int(os.environ.get("BENCH_STARTS", "3"))
# Idle: no request for this long after the last start, past the services' periodic collection
# (G1PeriodicGCInterval, 15 s, which G1 checks as often: the collection comes 15 to 30 s after the
# last one) and native heap trim, which hand back what start-up grew.
IDLE_SETTLE_SECONDS = int(os.environ.get("BENCH_IDLE_SECONDS", "45"))
STARTUP_BAR_S, IDLE_BAR_MIB, LOADED_BAR_MIB = 1.0, 160, 256


STARTUP_PROFILE_STEPS = 8


# Thread names (/proc/<pid>/task/<tid>/comm, cut to 15 characters) by what they do in a start.
THREAD_GROUPS = [("main", re.compile(r"^java$")), ("C2 compiler", re.compile(r"^C2 CompilerThre")),
                 ("C1 compiler", re.compile(r"^C1 CompilerThre")), ("event loops", re.compile(r"^vert\.x-eventloo")),
                 ("GC", re.compile(r"^(GC Thread|G1 )"))]


def run_startup():
    """Each service restarted alone, STARTS times, as a scaled-out pod starts beside running ones:
    the time from the process's start to its first successful readiness check, and after the last
    start its resident memory when it has idled IDLE_SETTLE_SECONDS (the launcher's command line
    and environment, read from the running instance). That start keeps running for the scenarios
    after it."""
    rows = {}
    for module in STARTUP_MODULES:
        pid, command, env, cwd, port = launcher_instance(module)
        ready_s, idle = [], []
        for attempt in range(STARTS):
            process, seconds = restart(module, pid, command, cwd, env, port)
            pid = process.pid
            ready_s.append(seconds)
            log(f"   {module}: ready in {ready_s[-1]:.2f} s")
        steps = startup_profile(module, pid, command, cwd, env, port)
        pid = launcher_pid(module)
        time.sleep(IDLE_SETTLE_SECONDS)
        idle.append(rss_mib(pid))
        log(f"   {module}: {idle[-1]:.0f} MiB resident after {IDLE_SETTLE_SECONDS} s idle")
        rows[module] = {"ready": ready_s, "idle": idle, "command": " ".join(command[:-2]), "steps": steps,
                        "resident": resident_parts(pid, command[0])}
    return rows


def startup_profile(module, pid, command, cwd, env, port):
    """Where a start goes: one more start with Quarkus's per-step timing of its runtime start
    (quarkus.debug.print-startup-times), the slowest steps with their milliseconds; then the plain
    command again, which keeps running. Not counted among the timed starts (printing costs a little)."""
    log_name = f"{module}-startup-profile.log"
    (ROOT / ".run" / "logs" / log_name).unlink(missing_ok=True)
    profiled = [command[0], "-Dquarkus.debug.print-startup-times=true", *command[1:]]
    process, ready_s = restart(module, pid, profiled, cwd, env, port, log_name)
    cpu = thread_cpu(process.pid)
    text = (ROOT / ".run" / "logs" / log_name).read_text(errors="replace")
    steps = sorted(((int(ms), step) for step, ms in re.findall(r"Build step (\S+) completed in: (\d+)ms", text)),
                   reverse=True)
    started = re.findall(r"started in ([\d.]+)s", text)
    restart(module, process.pid, command, cwd, env, port)
    log(f"   {module}: profiled start {started[-1] if started else '?'} s, slowest steps "
        + ", ".join(f"{step} {ms} ms" for ms, step in steps[:3]) + f"; CPU until ready {cpu}")
    return {"started_s": float(started[-1]) if started else None,
            "steps": [[step, ms] for ms, step in steps[:STARTUP_PROFILE_STEPS]],
            "ready_s": ready_s, "cpu": cpu}


def thread_cpu(pid):
    """The CPU seconds (user + system) that each group of the process's threads has used so far,
    read right after the first successful readiness check: on two cores, a start that used twice
    its wall time in CPU was waiting for a core, not for PostgreSQL. Threads that ended before are
    not counted (the process total, in "all", still has them)."""
    tick = os.sysconf("SC_CLK_TCK")

    def seconds(stat):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    groups = {name: 0.0 for name, _ in THREAD_GROUPS}
    groups["other threads"] = 0.0
    try:
        groups = {"all": seconds(Path(f"/proc/{pid}/stat")), **groups}
        for task in Path(f"/proc/{pid}/task").iterdir():
            name = (task / "comm").read_text().strip()
            group = next((g for g, pattern in THREAD_GROUPS if pattern.match(name)), "other threads")
            groups[group] += seconds(task / "stat")
    except OSError:
        return None
    return {name: round(value, 2) for name, value in groups.items()}


def resident_parts(pid, java):
    """What the resident memory of `pid` is made of, in MiB, from /proc/<pid>/smaps: the AOT cache's
    mapping, libjvm, other mapped files, the Java heap (its address range from jcmd GC.heap_info)
    and the rest of the anonymous memory (metaspace, code cache, thread stacks, the C allocator)."""
    heap = None
    jcmd = Path(java).parent / "jcmd"
    if jcmd.exists():
        info = subprocess.run([str(jcmd), str(pid), "GC.heap_info"], capture_output=True, text=True).stdout
        bounds = re.search(r"\[(0x[0-9a-f]+), (0x[0-9a-f]+)\)", info)
        heap = (int(bounds.group(1), 16), int(bounds.group(2), 16)) if bounds else None
    parts = {"AOT cache": 0, "libjvm": 0, "other files": 0, "Java heap": 0, "other anonymous": 0}
    part = None
    try:
        with open(f"/proc/{pid}/smaps") as smaps:
            for line in smaps:
                mapping = re.match(r"^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
                if mapping:
                    start, name = int(mapping.group(1), 16), mapping.group(2).strip()
                    if name.endswith(".aot"):
                        part = "AOT cache"
                    elif name.endswith("libjvm.so"):
                        part = "libjvm"
                    elif name.startswith("/"):
                        part = "other files"
                    elif heap and heap[0] <= start < heap[1]:
                        part = "Java heap"
                    else:
                        part = "other anonymous"
                elif line.startswith("Rss:") and part:
                    parts[part] += int(line.split()[1])
    except OSError:
        return None
    return {name: round(kib / 1024) for name, kib in parts.items()}


def record_settled_memory(results, resident, peak=None):
    """Resident memory of each service measured by the run's startup scenario, into its row under
    `resident` (and the peak under `peak`): read, like the idle figure, once the services have idled
    IDLE_SETTLE_SECONDS, what a pod keeps after the load has passed. Straight after a scenario, a
    reading caught the services in the middle of its garbage. The peak is what the load took at its
    height (VmHWM: the most the process was ever resident).

    Twice in a run: after the scenarios on the plain stack (vocab-import's document included),
    before topology restarts that stack ("loaded", "peak"); and at the end of the run ("after"),
    where the processes are new ones, loaded by the A/B scenarios only."""
    rows = results.get("startup", {}).get("startup", {})
    if not rows:
        return
    log(f"   (resident memory after {IDLE_SETTLE_SECONDS} s idle)")
    time.sleep(IDLE_SETTLE_SECONDS)
    for module, row in rows.items():
        row[resident] = launcher_rss_mib(module)
        if peak:
            row[peak] = launcher_peak_rss_mib(module)


def startup_and_memory():
    rows = []
    for service in ["gateway", *SERVICE_PORTS]:
        log_file = ROOT / ".run" / "logs" / f"{service}.log"
        started = re.findall(r"started in ([\d.]+)s", log_file.read_text(errors="replace")) if log_file.exists() else []
        pid_file = ROOT / ".run" / "pids" / f"{service}.pid"
        rss = rss_mib(pid_file.read_text().strip()) if pid_file.exists() else None
        rows.append((service, started[-1] if started else "?", f"{rss:.0f}" if rss is not None else "?"))
    kc_log = ROOT / ".run" / "keycloak" / "keycloak.log"
    kc_pid = ROOT / ".run" / "keycloak" / "pid"
    if kc_log.exists() and kc_pid.exists():
        started = re.findall(r"started in ([\d.]+)s", kc_log.read_text(errors="replace"))
        rss = subprocess.run(["ps", "--ppid", kc_pid.read_text().strip(), "-o", "rss="], capture_output=True,
                             text=True).stdout.split()
        own = subprocess.run(["ps", "-o", "rss=", "-p", kc_pid.read_text().strip()], capture_output=True,
                             text=True).stdout.split()
        total = sum(int(x) for x in rss + own)
        rows.append(("Keycloak 26.4.5", started[-1] if started else "?", f"{total / 1024:.0f}" if total else "?"))
    return rows
