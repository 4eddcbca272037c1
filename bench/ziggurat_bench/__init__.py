"""The code behind bench/run (bench/bench.py is its command line), one module per part:

    common       settings, the stack's addresses, HTTP, SQL, the files under .run/bench
    load         one measurement (wrk, pgbench) and the warm-up
    rounds       a scenario's targets in alternating rounds
    targets      the shapes of a target (POST, GET, refresh chain, floor)
    seed         PostgreSQL's settings, ./ziggurat up, people, applications, tokens, the floor's tables
    catalogue    every scenario by name, in the order of a full run
    tokens       grants and introspection, beside Keycloak
    dpop         DPoP-bound tokens at the gateway
    gateway      the gateway's hop beside direct calls and nginx; its rate limits
    vocab        the vocabulary: its seeding, the import, the reading scenarios
    events       data events: the big repository, appends, the newest page
    webhooks     appends beside 100 webhook subscriptions
    peers        Keycloak and nginx
    processes    the launcher's running instances
    startup      start-up and memory of each service
    cpu_profile  the gateway's CPU by part (JFR)
    topology     ./ziggurat up against --replicas 2
    ab           this build against another commit's
    runner       running the chosen scenarios
    report       the report (.md, .png, .json)
"""
