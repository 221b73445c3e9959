"""For pytest. The suite runs on PostgreSQL, a server of its own that tests/conftest.py starts; with
HIVE_TEST_DB=sqlite, on an SQLite file like `make run`. The web and worker processes the tests start get the same
database by URL (HIVE_TEST_DATABASE_URL), so they see the test's data."""

import os

from django.core.exceptions import ImproperlyConfigured

from webapp.settings.api import throttle_rates
from webapp.settings.base import *  # noqa: F403
from webapp.settings.database import database_config

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

HIVE_TEST_DB = env.str("HIVE_TEST_DB", default="postgres")  # noqa: F405
if HIVE_TEST_DB not in ("postgres", "sqlite"):
    raise ImproperlyConfigured(f"HIVE_TEST_DB={HIVE_TEST_DB!r}: the suite runs on 'postgres' (default) or 'sqlite'.")
if "HIVE_TEST_DATABASE_URL" in os.environ:
    # A server process of a test, or a PostgreSQL server given to the suite (it makes a test_… database on it).
    DATABASES = {"default": database_config(os.environ["HIVE_TEST_DATABASE_URL"])}
elif HIVE_TEST_DB == "sqlite":
    # One file per pytest process (parallel runs never share it); the servers it starts get it by URL.
    _file = VAR_DIR / f"test-{os.getpid()}.sqlite3"  # noqa: F405
    DATABASES = {"default": database_config(f"sqlite:///{_file}")}
    DATABASES["default"]["TEST"] = {"NAME": str(_file)}
else:
    # Nothing listens on port 1: the suite's own server fills in its address before any test touches the database.
    DATABASES = {"default": database_config("postgres://hive@127.0.0.1:1/hive")}

# Stored files of their own per pytest process (one per parallel worker), passed on to the servers it starts: a test
# that looks for what a run stored sees its own process's files, not another worker's.
os.environ.setdefault("HIVE_MEDIA_ROOT", str(VAR_DIR / f"test-media-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"))  # noqa: F405
MEDIA_ROOT = env.path("HIVE_MEDIA_ROOT")  # noqa: F405

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
# with their own rates (tests/security/test_limits.py), and HIVE_RATE_<SCOPE> still sets one.
_SCOPES = REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]  # type: ignore[used-before-def]  # noqa: F405
REST_FRAMEWORK = {  # type: ignore[used-before-def]  # noqa: F405
    **REST_FRAMEWORK,  # type: ignore[used-before-def]  # noqa: F405
    "DEFAULT_THROTTLE_RATES": throttle_rates(dict.fromkeys(_SCOPES, "100000/minute")),
}
HIVE_QUOTA_RUNS_PER_HOUR = 0
HIVE_QUOTA_CONCURRENT_SESSIONS = 0
HIVE_QUOTA_TOKENS_PER_DAY = 0
AXES_FAILURE_LIMIT = 1000
# Webhook retries within a test's patience.
HIVE_WEBHOOK_BACKOFF_S = env.float("HIVE_WEBHOOK_BACKOFF_S", default=0.2)  # noqa: F405
# A download past the limit is tested with files of a few megabytes (the site sends them slowly, to be stopped).
HIVE_DOWNLOAD_MAX_BYTES = env.int("HIVE_DOWNLOAD_MAX_BYTES", default=2_000_000)  # noqa: F405
