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
HIVE_REAP_PERIOD_S = 2.0
HIVE_WORKER_HEARTBEAT_TTL_S = env.float("HIVE_WORKER_HEARTBEAT_TTL_S", default=4.0)  # noqa: F405
# Tests serve their pages from loopback on ports chosen at run time, so the suite opens loopback in the firewall;
# the firewall itself is tested with a strict allow-list of its own (tests/security/).
HIVE_EGRESS_ALLOW = env.list("HIVE_EGRESS_ALLOW", default=["localhost", "127.0.0.1", "::1"])  # noqa: F405
# The scripted model server of the tests listens on loopback too.
HIVE_LLM_ALLOWED_PRIVATE_HOSTS = env.list(  # noqa: F405
    "HIVE_LLM_ALLOWED_PRIVATE_HOSTS", default=["localhost", "127.0.0.1", "::1"]
)

# The suite signs up and sends far more than a person would from one address; the limits themselves are tested
# with their own rates (tests/security/test_limits.py).
_RATES = REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]  # type: ignore[used-before-def]  # noqa: F405
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict.fromkeys(_RATES, "100000/minute")}  # type: ignore[used-before-def]  # noqa: F405
HIVE_QUOTA_RUNS_PER_HOUR = 0
HIVE_QUOTA_CONCURRENT_SESSIONS = 0
HIVE_QUOTA_TOKENS_PER_DAY = 0
AXES_FAILURE_LIMIT = 1000
# Webhook retries within a test's patience.
HIVE_WEBHOOK_BACKOFF_S = env.float("HIVE_WEBHOOK_BACKOFF_S", default=0.2)  # noqa: F405
# A download past the limit is tested with files of a few megabytes (the site sends them slowly, to be stopped).
HIVE_DOWNLOAD_MAX_BYTES = env.int("HIVE_DOWNLOAD_MAX_BYTES", default=2_000_000)  # noqa: F405
