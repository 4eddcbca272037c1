"""DPoP (RFC 9449) at the gateway: GET /user with a DPoP-bound token and a new proof on each call
(bench/DpopProofs.java makes them), beside a bearer token."""
import os
import subprocess
from pathlib import Path

from .common import API, BENCH, GATEWAY, GATEWAY_PREFIX, OWNER, PASSWORD, STATE
from .gateway import cached_tokens
from .targets import get


def java_home_bin():
    """The java launcher of the JDK that runs the stack (single-file source programs need 11 or newer)."""
    home = os.environ.get("JAVA_HOME")
    return str(Path(home) / "bin" / "java") if home else "java"


def scenarios(state):
    gw = GATEWAY + GATEWAY_PREFIX

    def dpop_proofs(env):
        # A proof is good once, with the gateway's nonce it carries, for under a minute: a file of new
        # ones (and a new nonce) before each run.
        # As many as the run can use (BENCH_DPOP_RATE calls a second), no more: signing them all
        # takes time out of the nonce's minute, and on a busy machine 100,000 took so long that the
        # nonce ran out during the run (its calls then refused: errors in the report).
        out = STATE / "dpop-proofs.txt"
        count = os.environ.get("BENCH_DPOP_PROOFS") or str(
            int(env["BENCH_RUN_SECONDS"]) * int(os.environ.get("BENCH_DPOP_RATE", "6000")))
        subprocess.run([java_home_bin(), str(BENCH / "DpopProofs.java"), f"{API}/oauth/token",
                        state.get("dpop_client", {}).get("client_id", ""), OWNER, PASSWORD, f"{API}/user",
                        count, str(out)], check=True)
        env["BENCH_LINES"] = str(out)

    return {
        # RFC 9449 at the gateway: each call's proof checked (signature, htm, htu, iat, ath, the
        # token's key, the gateway's nonce) and its first use remembered by the replica that issued
        # the nonce, beside a bearer token.
        "dpop": {
            "title": "GET /user through the gateway: a DPoP token with a new proof on each call beside a bearer token",
            "connections": 32,
            "bars": [],
            "targets": [
                dict(get("bearer token", "ziggurat", gw, f"{GATEWAY_PREFIX}/user", 32, "access-tokens.txt",
                         "Authorization: Bearer {}"), prepare=cached_tokens),
                {"name": "DPoP token and proof", "system": "ziggurat", "url": gw, "connections": 32,
                 "script": "dpop.lua", "prepare": dpop_proofs, "env": {"BENCH_PATH": f"{GATEWAY_PREFIX}/user"}},
            ]},
    }
