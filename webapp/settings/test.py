"""For pytest. Web and worker subprocesses share one SQLite file so they see the test's data."""

import os

from webapp.settings.base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# One file per pytest process (parallel runs never share it); the servers it starts get it by name.
HIVE_TEST_DB = os.environ.get("HIVE_TEST_DB", str(VAR_DIR / f"test-{os.getpid()}.sqlite3"))  # noqa: F405
DATABASES["default"]["NAME"] = HIVE_TEST_DB  # noqa: F405
DATABASES["default"]["TEST"] = {"NAME": HIVE_TEST_DB}  # noqa: F405
HIVE_WORKER_HEARTBEAT_S = 1.0
HIVE_WORKER_HEARTBEAT_TTL_S = env.float("HIVE_WORKER_HEARTBEAT_TTL_S", default=4.0)  # noqa: F405
# Tests serve their pages from loopback on ports chosen at run time, so the suite opens loopback in the firewall;
# the firewall itself is tested with a strict allow-list of its own (tests/security/).
HIVE_EGRESS_ALLOW = env.list("HIVE_EGRESS_ALLOW", default=["localhost", "127.0.0.1", "::1"])  # noqa: F405
# The scripted model server of the tests listens on loopback too.
HIVE_LLM_ALLOWED_PRIVATE_HOSTS = env.list(  # noqa: F405
    "HIVE_LLM_ALLOWED_PRIVATE_HOSTS", default=["localhost", "127.0.0.1", "::1"]
)
