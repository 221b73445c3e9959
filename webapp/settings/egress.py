"""The network firewall of the hosted browser and of the server's own requests (docs/security.md).

Every request the browser makes goes through a filtering proxy in the worker; only public addresses are reachable,
plus what is listed here. Nothing is exempted by range unless an operator lists the range.
"""

import environ

env = environ.Env()

# Hive's own origins (its demo sites): reachable by the browser and the agent, whatever the other rules say.
HIVE_OWN_ORIGINS = env.list("HIVE_OWN_ORIGINS", default=["http://localhost:8000", "http://127.0.0.1:8000"])
# What the operator opens besides: hosts ("intranet.example"), host:port ("127.0.0.1:3000", "[::1]:8080"),
# CIDR blocks ("10.20.0.0/16") or origins ("http://127.0.0.1:3000"). Comma-separated in the environment.
HIVE_EGRESS_ALLOW = env.list("HIVE_EGRESS_ALLOW", default=[])
# Requests the server makes for users (their model profiles' base URLs) reach public addresses only, and the
# internal hosts listed here, e.g. a local Ollama: "127.0.0.1:11434". The server default model's host is allowed.
HIVE_LLM_ALLOWED_PRIVATE_HOSTS = env.list("HIVE_LLM_ALLOWED_PRIVATE_HOSTS", default=[])
# The firewall's bounds per session: name look-ups at once (more wait their turn), how long one may take before the
# request is refused, and how long a tunnel or relayed connection may stay silent both ways before it is closed.
HIVE_EGRESS_LOOKUPS_PER_SESSION = env.int("HIVE_EGRESS_LOOKUPS_PER_SESSION", default=4)
HIVE_EGRESS_LOOKUP_TIMEOUT_S = env.float("HIVE_EGRESS_LOOKUP_TIMEOUT_S", default=5.0)
HIVE_EGRESS_IDLE_TIMEOUT_S = env.float("HIVE_EGRESS_IDLE_TIMEOUT_S", default=300.0)
