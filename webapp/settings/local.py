"""For `make run` on a developer's machine."""

from pathlib import Path

from webapp.settings.base import *  # noqa: F403
from webapp.settings.database import database_config

# DEBUG shows tracebacks with settings and every URL pattern: only with the explicit development switch.
DEBUG = env.bool("HIVE_DEV", default=False)  # noqa: F405
# The demo sites of this `make run` (HIVE_PORT): open in the firewall by name. Other local services are refused
# unless listed in HIVE_EGRESS_ALLOW (e.g. HIVE_EGRESS_ALLOW=127.0.0.1:3000 for an app under development).
_PORT = env.int("HIVE_PORT", default=8000)  # noqa: F405
HIVE_OWN_ORIGINS = env.list(  # noqa: F405
    "HIVE_OWN_ORIGINS", default=[f"http://localhost:{_PORT}", f"http://127.0.0.1:{_PORT}"]
)
# The folder of this stack's state (HIVE_VAR, set by `make run`: var/ on the default port, var/<port>/ on another).
# Stacks on two ports keep apart: each has its own Redis, and a worker's reaper fails the runs of workers it does not
# see in its Redis, so they must not share a database either.
_STATE = Path(env.str("HIVE_VAR", default=str(VAR_DIR)))  # noqa: F405
DATABASES = {"default": database_config(env.str("DATABASE_URL", default=f"sqlite:///{_STATE / 'hive.sqlite3'}"))}  # noqa: F405
MEDIA_ROOT = env.path("HIVE_MEDIA_ROOT", default=str(_STATE / "media"))  # noqa: F405
