#!/usr/bin/env python3
"""Writes the conformance-suite plan configs for Ziggurat (static clients & dynamic registration)."""
import json, os, urllib.request, urllib.parse

W = os.environ.get("OIDF_DIR", "/tmp/oidf")

OP = "http://localhost:8080/api"
SUITE = "http://localhost:8443"
USER, PASSWORD = "oidftester", "Conformance-Suite-2026!"
AUTHZ = OP + "/oauth/authorize*"

# Test modules that leave an image placeholder: they expect the OP to show an error page (or a
# second login page); the scripted browser uploads the OP's page as the "screenshot" (result REVIEW).
PLACEHOLDER_MODULES = [
    "oidcc-response-type-missing", "oidcc-ensure-registered-redirect-uri", "oidcc-prompt-login",
    "oidcc-max-age-1", "oidcc-ensure-redirect-uri-in-authorization-request",
    "oidcc-ensure-request-object-with-redirect-uri", "oidcc-ensure-request-without-nonce-fails",
    "oidcc-redirect-uri-query-added", "oidcc-redirect-uri-query-mismatch",
    "oidcc-registration-logo-uri", "oidcc-registration-policy-uri", "oidcc-registration-tos-uri",
]

def tasks(snapshot):
    t = []
    if snapshot:
        t.append({  # upload the OP's page (error page / login page) to fill the test's placeholder
            "task": "Snapshot OP page for placeholder",
            "optional": True,
            "match": AUTHZ,
            "commands": [["wait", "xpath", "//*", 10,
                          "Sign in|Authorize|This request cannot go on|Leave for|Ziggurat",
                          "update-image-placeholder-optional"]]
        })
    t += [
        {
            "task": "Login",
            "optional": True,
            "match": AUTHZ,
            "commands": [
                ["text", "id", "login", USER, "optional"],
                ["text", "id", "password", PASSWORD, "optional"],
                ["click", "id", "sign_in", "optional"]
            ]
        },
        {
            "task": "Consent",
            "optional": True,
            "match": AUTHZ,
            "commands": [["click", "id", "approve", "optional"]]
        },
        {   # Ziggurat's page for prompt=none answers to a client it does not trust with them
            # (templates/leave.html): a person may follow the link; the scripted person does
            "task": "Leave page (prompt=none answer for an unverified client)",
            "optional": True,
            "match": AUTHZ,
            "commands": [["click", "id", "continue_link", "optional"]]
        },
        {   # NB match on the suite's own host: "*/test/*/callback*" would also match the OP's
            # authorization URL, whose redirect_uri query parameter contains that path
            "task": "Verify Complete",
            "optional": True,
            "match": SUITE + "/test/*/callback*",
            "commands": [["wait", "id", "submission_complete", 10]]
        }
    ]
    return t

def browser(snapshot=False):
    return [{"match": AUTHZ, "tasks": tasks(snapshot)}]

def common(alias, description):
    return {
        "alias": alias,
        "description": description,
        "server": {"discoveryUrl": OP + "/.well-known/openid-configuration"},
        "browser": browser(False),
        "override": {m: {"browser": browser(True)} for m in PLACEHOLDER_MODULES},
    }

def static_config(alias):
    c1 = json.load(open(W + "/client1.json"))
    c2 = json.load(open(W + "/client2.json"))
    cfg = common(alias, "Ziggurat OP (static clients)")
    cfg["client"] = {"client_id": c1["client_id"], "client_secret": c1["client_secret"]}
    cfg["client2"] = {"client_id": c2["client_id"], "client_secret": c2["client_secret"]}
    cfg["client_secret_post"] = {"client_id": c1["client_id"], "client_secret": c1["client_secret"]}
    return cfg

def admin_token():
    data = urllib.parse.urlencode({"grant_type": "password", "username": "hypatia",
                                   "password": "library of alexandria", "scope": "public admin"}).encode()
    req = urllib.request.Request(OP + "/oauth/token", data=data, headers={"Accept": "application/json"})
    return json.load(urllib.request.urlopen(req))["access_token"]

def dynamic_config(alias):
    cfg = common(alias, "Ziggurat OP (dynamic registration)")
    tok = admin_token()
    cfg["client"] = {"client_name": "oidf-conformance-dyn-1", "initial_access_token": tok}
    cfg["client2"] = {"client_name": "oidf-conformance-dyn-2", "initial_access_token": tok}
    return cfg

if __name__ == "__main__":
    json.dump(static_config("ziggurat"), open(W + "/config-static.json", "w"), indent=2)
    json.dump(dynamic_config("zigguratdyn"), open(W + "/config-dynamic.json", "w"), indent=2)
    print("wrote", W + "/config-static.json", W + "/config-dynamic.json")
