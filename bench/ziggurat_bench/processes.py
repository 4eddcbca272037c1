"""The launcher's running instances (.run/pids): their pid, command line and environment, a
restart in their place, and their resident memory."""
import os
import signal
import subprocess
import time
import urllib.parse
from pathlib import Path

from .common import ROOT, SERVICE_PORTS, await_condition, die, http


def launcher_pid(module):
    return int((ROOT / ".run" / "pids" / f"{module}.pid").read_text().strip())


def running_env(module):
    """The environment of the launcher's running instance of a module."""
    return dict(entry.split("=", 1) for entry in
                Path(f"/proc/{launcher_pid(module)}/environ").read_bytes().decode().split("\0") if "=" in entry)


def stack_database():
    """Where the launcher's running stack keeps its data: (host, port, database) from vocab-service's
    QUARKUS_DATASOURCE_JDBC_URL (jdbc:postgresql://HOST:PORT/NAME, Flyway's connection, straight to
    PostgreSQL even behind PgBouncer). None when no instance of it runs or its environment cannot be
    read."""
    try:
        url = running_env("vocab-service").get("QUARKUS_DATASOURCE_JDBC_URL", "")
    except (OSError, ValueError):
        return None
    if not url.startswith("jdbc:postgresql://"):
        return None
    parts = urllib.parse.urlparse(url[len("jdbc:"):])
    return parts.hostname, parts.port or 5432, parts.path.lstrip("/")


def running_command(module, jar):
    """The launcher's running instance's command (its JVM and every option), for another build's
    `jar`. Its AOT cache belongs to the launcher's build, so it is left out (start-up only: the
    comparison is of steady throughput). Started with a plain `java -jar`, the base ran on another
    JVM (Java 17, not Temurin 25) with a default heap four times the launcher's, and the A/B of
    2026-11-27 measured that, not the change."""
    argv = [a for a in Path(f"/proc/{launcher_pid(module)}/cmdline").read_bytes().decode().split("\0") if a]
    jar_at = argv.index("-jar")
    options = [a for a in argv[1:jar_at] if not a.startswith("-XX:AOTCache=")]
    return [argv[0], *options, "-jar", str(jar), *argv[jar_at + 2:]]


def launcher_instance(module):
    """The launcher's running instance of `module`: its pid, command line, environment, working
    directory, and the port of its readiness check (the gateway's management port)."""
    pid = launcher_pid(module)
    proc = Path(f"/proc/{pid}")
    command = [a for a in (proc / "cmdline").read_bytes().decode().split("\0") if a]
    env = dict(e.split("=", 1) for e in (proc / "environ").read_bytes().decode().split("\0") if "=" in e)
    port = env.get("QUARKUS_MANAGEMENT_PORT") if module == "gateway" else env.get("QUARKUS_HTTP_PORT")
    port = port or ("8090" if module == "gateway" else str(SERVICE_PORTS[module]))
    return pid, command, env, os.readlink(proc / "cwd"), port


def restart(module, pid, command, cwd, env, port, log_name=None):
    """Stops the instance `pid` and starts `command` in its place; returns (process, seconds to ready)."""
    os.kill(pid, signal.SIGTERM)
    await_condition(lambda: not Path(f"/proc/{pid}").exists() or
                    Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z", 60, f"{module} did not stop")
    with open(ROOT / ".run" / "logs" / (log_name or f"{module}.log"), "ab") as out:
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    (ROOT / ".run" / "pids" / f"{module}.pid").write_text(str(process.pid))
    while True:
        try:
            if http("GET", f"http://127.0.0.1:{port}/q/health/ready", timeout=1)[0] == 200:
                return process, time.monotonic() - started
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() - started > 120:
            die(f"{module} did not get ready: see .run/logs/{log_name or module + '.log'}")
        time.sleep(0.005)


def rss_mib(pid):
    out = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return int(out) / 1024 if out else None


def launcher_rss_mib(module):
    """Resident memory of the launcher's instance of this module (its pid file under .run/pids)."""
    return rss_mib(launcher_pid(module))


def launcher_peak_rss_mib(module):
    """The most that instance was ever resident (VmHWM), in MiB."""
    for line in Path(f"/proc/{launcher_pid(module)}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None
