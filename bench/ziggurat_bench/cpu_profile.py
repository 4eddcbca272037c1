"""The gateway's CPU by part: a Java Flight Recorder CPU-time profile of a running JVM, its samples
counted by the frames on their stacks."""
import json
import os
import subprocess
from pathlib import Path

from .common import DURATION, STATE, log
from .load import measure
from .processes import launcher_pid


# What a gateway CPU-time sample is doing, by the frames on its stack (package.Class.method); the
# first part whose pattern matches a frame, from the top of the stack down, takes the sample. Time
# in the kernel (TCP, epoll) is in the samples, under the Java frames that called it.
GATEWAY_PARTS = [("socket reads and writes, epoll (in the kernel)", ("FileDescriptor.write", "FileDescriptor.read",
                                                                   "Socket.send", "Socket.recv", "Socket.write",
                                                                   "Socket.read", "Native.epoll")),
                 ("signing platform tokens", ("PlatformTokenSigner.sign",)),
                 ("introspection (quarkus-oidc, its HTTP client)", ("oidc.", "OidcProvider", "Identities.introspect")),
                 ("access-token look-up (Identities.known)", ("Identities.known",)),
                 ("rate limits", ("RateLimits.take",)),
                 ("access log", ("AccessLog.", "AccessLogWriter.")),
                 ("header encoding (Netty, Vert.x)", ("HttpObjectEncoder.encode", "VertxHttpResponseEncoder.",
                                                      "HeadersMultiMap.encode")),
                 ("the proxy (vertx-http-proxy, UpstreamProxies)", ("httpproxy.", "UpstreamProxies.")),
                 ("the gateway's pipeline (GatewayProxy)", ("GatewayProxy.",)),
                 ("metrics (Micrometer)", ("micrometer.",)),
                 ("the HTTP client to the service (Vert.x, Netty)", ("HttpClientCodec", "Http1xClientConnection",
                                                                     "HttpClientRequestImpl", "HttpClientResponseImpl",
                                                                     "HttpClientImpl", "ConnectionManager")),
                 ("the HTTP server (Vert.x, Netty; routing)", ("HttpRequestDecoder", "Http1xServerConnection",
                                                              "Http1xServerRequest", "Http1xServerResponse", "ext.web.",
                                                              "VertxHttpRecorder"))]


def jdk_tool(pid, tool):
    """jcmd or jfr of the JDK the process runs on."""
    return str(Path(os.readlink(f"/proc/{pid}/exe")).parent / tool)


def start_cpu_profile(pid, name):
    """Starts a Java Flight Recorder CPU-time profile of the process (jdk.CPUTimeSample, JEP 509: a
    sample per 5 ms of a thread's CPU time, so shares are of CPU, where JFR's usual execution
    samples also count threads that wait for a core). None when it started; else why not (the
    event needs JDK 25 or later)."""
    started = subprocess.run([jdk_tool(pid, "jcmd"), str(pid), "JFR.start", f"name={name}",
                              "jdk.CPUTimeSample#enabled=true", "jdk.CPUTimeSample#throttle=5ms"],
                             capture_output=True, text=True)
    if started.returncode != 0 or "Started recording" not in started.stdout:
        return (started.stdout or started.stderr).strip() or "jcmd failed"
    return None


def stop_cpu_profile(pid, name):
    """Stops the profile and counts its samples: (samples, {part: samples}), each sample under the
    first of GATEWAY_PARTS found on its stack, else under "other"."""
    recording = STATE / f"{name}.jfr"
    subprocess.run([jdk_tool(pid, "jcmd"), str(pid), "JFR.stop", f"name={name}", f"filename={recording}"],
                   check=True, stdout=subprocess.DEVNULL)
    printed = subprocess.run([jdk_tool(pid, "jfr"), "print", "--json", "--stack-depth", "128", "--events",
                              "jdk.CPUTimeSample", str(recording)], capture_output=True, text=True, check=True).stdout
    events = json.loads(printed)["recording"]["events"]
    counts = {part: 0 for part, _ in GATEWAY_PARTS}
    counts["other"] = 0
    for event in events:
        trace = event["values"]["stackTrace"]
        frames = [f"{frame['method']['type']['name'].replace('/', '.')}.{frame['method']['name']}"
                  for frame in (trace["frames"] if trace else [])]
        part = next((part_name for frame in frames for part_name, patterns in GATEWAY_PARTS
                     if any(p in frame for p in patterns)), "other")
        counts[part] += 1
    recording.unlink()
    return len(events), counts


def profile_gateway_run(name, target):
    """One run of `target` (the launcher's gateway) under a CPU-time profile of the gateway, after the
    measured runs and not counted with them; the report's lines: each part's share of its CPU."""
    gateway = launcher_pid("gateway")
    refused = start_cpu_profile(gateway, f"bench-{name}")
    if refused:
        log(f"   (no profile of the gateway: {refused})")
        return [f"No profile of the gateway: {refused}"]
    sample = measure(target, DURATION)
    samples, counts = stop_cpu_profile(gateway, f"bench-{name}")
    log(f"   profiled run of the gateway: {sample['rps']:.0f}/s, {samples} CPU-time samples")
    lines = [f"The gateway's CPU by part, over one more run of its target after the measured ones, not counted "
             f"({sample['rps']:.0f}/s under the profile; {samples} JFR CPU-time samples, one per 5 ms of a thread's "
             "CPU; each counted under the first part found on its stack from the top):", "",
             "| part of the gateway | share of its CPU |", "|---|---|"]
    lines += [f"| {part} | {100 * count / max(1, samples):.1f}% |"
              for part, count in sorted(counts.items(), key=lambda item: -item[1])]
    return lines
