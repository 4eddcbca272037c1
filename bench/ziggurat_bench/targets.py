"""The shapes of a scenario's targets: a wrk POST or GET (rotate.lua), a refresh chain (refresh.lua),
and a pgbench script of the floor."""
import urllib.parse

from .common import STATE, basic, die, lines, write_lines

FORM = "Content-Type: application/x-www-form-urlencoded|Accept: application/json"


def bench_client(state):
    """The Authorization header of the bench's confidential client ("" before it is seeded)."""
    return basic(state["client_id"], state["client_secret"]) if state.get("client_id") else ""


def post(name, system, url, body, authorization, lines_file=None):
    target = {"name": name, "system": system, "url": url, "connections": 32,
              "env": {"BENCH_METHOD": "POST", "BENCH_PATH": urllib.parse.urlparse(url).path, "BENCH_BODY": body,
                      "BENCH_HEADERS": f"{FORM}|Authorization: {authorization}"}}
    if lines_file:
        target["env"]["BENCH_LINES"] = lines(lines_file)
    return target


def get(name, system, url, path, connections, lines_file=None, headers=""):
    target = {"name": name, "system": system, "url": url, "connections": connections,
              "env": {"BENCH_METHOD": "GET", "BENCH_PATH": path, "BENCH_HEADERS": headers}}
    if lines_file:
        target["env"]["BENCH_LINES"] = lines(lines_file)
    return target


def refresh(name, system, url, authorization, lines_file):
    def fresh_tokens(env):
        # A refresh token is good once: every run starts its chains from tokens no run used.
        env["BENCH_LINES"] = take_unused(lines_file, 32)
    return {"name": name, "system": system, "url": url, "connections": 32, "script": "refresh.lua",
            "prepare": fresh_tokens,
            "env": {"BENCH_PATH": urllib.parse.urlparse(url).path,
                    "BENCH_HEADERS": f"Accept: application/json|Authorization: {authorization}"}}


def floor(state, name, script, connections):
    return {"name": name, "system": "PostgreSQL floor", "floor": script, "connections": connections,
            "vars": state.get("floor", {})}


def take_unused(name, count):
    """The next `count` tokens of a seeded file that no earlier run took; the cursor lives beside it."""
    tokens = [t for t in (STATE / name).read_text().split("\n") if t]
    cursor_file = STATE / (name + ".cursor")
    cursor = int(cursor_file.read_text()) if cursor_file.exists() else 0
    if cursor + count > len(tokens):
        die(f"every token of {name} was used by earlier runs: run bench/run seed --fresh-tokens")
    cursor_file.write_text(str(cursor + count))
    return str(write_lines(name + ".run", tokens[cursor:cursor + count]))
