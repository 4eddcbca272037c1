"""The peers Ziggurat is measured beside: Keycloak (bench/keycloak.sh), and nginx as a plain
reverse proxy in front of directory-service."""
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .common import BENCH, ROOT, SERVICE_PORTS, STATE, await_condition, basic, die, http, log, parallel, save_state, write_lines


def keycloak_up():
    try:
        return http("GET", "http://127.0.0.1:8180/realms/bench", timeout=3)[0] == 200
    except OSError:
        return False


def seed_keycloak(state):
    env = ROOT / ".run" / "keycloak" / "bench.env"
    if not keycloak_up():
        log("seed: starting Keycloak (bench/keycloak.sh up)")
        subprocess.run([str(BENCH / "keycloak.sh"), "up"], check=True)
    kc = dict(re.findall(r"^(\w+)='([^']*)'", env.read_text(), re.M))
    state["keycloak"] = kc
    save_state(state)
    auth = {"Authorization": basic(kc["KEYCLOAK_CLIENT_ID"], kc["KEYCLOAK_CLIENT_SECRET"])}
    log("seed: Keycloak tokens (password grant)")

    def grant(_):
        return http("POST", kc["KEYCLOAK_TOKEN_URL"], headers=auth, expect=[200],
                    form={"grant_type": "password", "username": kc["KEYCLOAK_USER"], "password": kc["KEYCLOAK_PASSWORD"]})[1]

    cursor = STATE / "keycloak-refresh-tokens.txt.cursor"
    if (STATE / "keycloak-access-tokens.txt").exists() and cursor.exists() and int(cursor.read_text()) + 512 <= 1000 \
            and "--fresh-tokens" not in sys.argv and time.time() - cursor.stat().st_mtime < 1200:
        return
    issued = parallel(grant, range(1000))
    write_lines("keycloak-access-tokens.txt", [t["access_token"] for t in issued[:200]])
    write_lines("keycloak-refresh-tokens.txt", [t["refresh_token"] for t in issued])
    cursor.write_text("0")


# The reference proxy of the gateway-hop scenarios: Debian's nginx, a plain reverse proxy to
# directory-service on this port (no token checks, no platform token: the request carries one).
NGINX_PORT = 8096


def start_nginx():
    """nginx as a plain reverse proxy to directory-service, as a production edge would run it:
    a worker per core, keep-alive connections upstream, no access log (the gateway writes none
    in the bench either). Stopped when the scenario ends."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        if os.geteuid() != 0:
            die("nginx is needed for the gateway-hop scenarios (apt-get install nginx-light)")
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx-light"], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    prefix = STATE / "nginx"
    prefix.mkdir(parents=True, exist_ok=True)
    upstream = SERVICE_PORTS["directory-service"]
    (prefix / "nginx.conf").write_text(f"""worker_processes auto;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {prefix}/body;
  proxy_temp_path {prefix}/proxy;
  fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi;
  scgi_temp_path {prefix}/scgi;
  upstream directory {{ server 127.0.0.1:{upstream}; keepalive 64; }}
  server {{
    listen 127.0.0.1:{NGINX_PORT};
    location / {{
      proxy_pass http://directory;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
    }}
  }}
}}
""")
    process = subprocess.Popen([binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def ready():
        try:
            return http("GET", f"http://127.0.0.1:{NGINX_PORT}/q/health/ready", timeout=2)[0] in (200, 401, 404)
        except OSError:
            return False

    await_condition(ready, 30, f"nginx did not start: see {prefix}/error.log")
    log(f"   (started nginx on port {NGINX_PORT}, proxying to directory-service)")
    return process
