"""Every scenario by name, in the order a full run takes them (and `bench/run list` prints them).
Each family's module describes its own; this puts them together."""
from . import dpop, events, gateway, resource_servers, tokens, vocab, webhooks

# startup first: in a full run, the memory after load is then that of the processes it started.
SPECIAL_SCENARIOS = ["startup", "vocab-import", "topology", "ab"]

# The measured scenarios, in the order of a full run.
ORDER = ["client-credentials", "refresh", "openid", "openid-password", "jwt-access-tokens", "dpop", "introspection",
         "resource-server-introspection",
         "password", "people", "user", "rate-limit-share", "vocab-concept", "vocab-list", "vocab-since",
         "vocab-search", "events-append", "webhook-appends", "events-newest"]
FAMILIES = [tokens, dpop, gateway, resource_servers, vocab, events, webhooks]


def scenarios(state):
    """Each measured scenario: its title, connections, bars and targets, for the seeded `state`."""
    defined = {}
    for family in FAMILIES:
        defined.update(family.scenarios(state))
    if sorted(defined) != sorted(ORDER):
        raise AssertionError(f"catalogue.ORDER {sorted(ORDER)} does not name the scenarios defined {sorted(defined)}")
    return {name: defined[name] for name in ORDER}
