"""For `make run` on a developer's machine."""

from webapp.settings.base import *  # noqa: F403

# DEBUG shows tracebacks with settings and every URL pattern: only with the explicit development switch.
DEBUG = env.bool("HIVE_DEV", default=False)  # noqa: F405
# The demo sites of this `make run` (HIVE_PORT): open in the firewall by name. Other local services are refused
# unless listed in HIVE_EGRESS_ALLOW (e.g. HIVE_EGRESS_ALLOW=127.0.0.1:3000 for an app under development).
_PORT = env.int("HIVE_PORT", default=8000)  # noqa: F405
HIVE_OWN_ORIGINS = env.list(  # noqa: F405
    "HIVE_OWN_ORIGINS", default=[f"http://localhost:{_PORT}", f"http://127.0.0.1:{_PORT}"]
)
