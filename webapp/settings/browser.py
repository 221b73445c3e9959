"""The worker's browser pool and the live view."""

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()


def picture_size(name: str, default: str) -> tuple[int, int]:
    """A picture size given as WIDTHxHEIGHT in pixels."""
    value = env.str(name, default=default)
    try:
        width, height = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: give a size as WIDTHxHEIGHT, e.g. {default}.") from None
    if width < 16 or height < 16:
        raise ImproperlyConfigured(f"{name}={value!r}: a size of at least 16x16 pixels.")
    return width, height


# 0 means "from memory" (about 90 MB per session, three quarters of the machine).
HIVE_POOL_MAX_SESSIONS = env.int("HIVE_POOL_MAX_SESSIONS", default=0)
HIVE_POOL_WARM_CONTEXTS = env.int("HIVE_POOL_WARM_CONTEXTS", default=2)
HIVE_POOL_IDLE_TIMEOUT_S = env.float("HIVE_POOL_IDLE_TIMEOUT_S", default=600.0)
HIVE_LIVE_VIEW_FPS = env.float("HIVE_LIVE_VIEW_FPS", default=12.0)
# A run's recording (watched again in the dashboard): frames a second kept of the live view (0: no recordings),
# the most bytes kept per run (frames past it are left out; the recording says it was cut), and how long after a
# step starts or ends it goes on recording (then it waits for the next step: a page left alone costs nothing).
HIVE_RECORDING_FPS = env.float("HIVE_RECORDING_FPS", default=1.0)
HIVE_RECORDING_MAX_BYTES = env.int("HIVE_RECORDING_MAX_BYTES", default=20_000_000)
HIVE_RECORDING_SETTLE_S = env.float("HIVE_RECORDING_SETTLE_S", default=1.5)
# The recording's pictures are smaller than the live view's, whoever watches live: a third of the bytes. A traced
# run's trace takes its screenshots at this size too, as both share one screencast.
HIVE_RECORDING_SIZE = picture_size("HIVE_RECORDING_SIZE", "800x500")
HIVE_RECORDING_QUALITY = env.int("HIVE_RECORDING_QUALITY", default=50)
HIVE_UPLOAD_MAX_BYTES = env.int("HIVE_UPLOAD_MAX_BYTES", default=20_000_000)
# The page size of a tab's main content for the model: content is kept whole, and a longer text reaches the
# model in pages of at most this many characters (get_page_content page=2, ...), each saying where it sits.
HIVE_CONTENT_LIMIT = env.int("HIVE_CONTENT_LIMIT", default=10_000)
# The same for a field's value: get_element_details gives a value whole up to this many characters (as the model
# reads them, JSON-quoted) and a longer one in parts of this size, each saying which characters it holds.
HIVE_ELEMENT_VALUE_CHARS = env.int("HIVE_ELEMENT_VALUE_CHARS", default=10_000)
# Chromium runs with its sandbox and never as root: a worker started as root runs it as this system user (`make
# system` creates it). Only on a host where the sandbox cannot work does HIVE_BROWSER_ALLOW_NO_SANDBOX start it with
# --no-sandbox, which the worker logs loudly at every launch (docs/security.md).
HIVE_BROWSER_USER = env.str("HIVE_BROWSER_USER", default="hive-browser")
HIVE_BROWSER_ALLOW_NO_SANDBOX = env.bool("HIVE_BROWSER_ALLOW_NO_SANDBOX", default=False)
# What one session may take of the worker all sessions share (docs/security.md); 0 turns a bound off. Popups past the
# tab limit are closed at once; a tab that does not answer for the busy time is closed; over the memory limit (its
# pages' JavaScript memory together) the heaviest tab is closed. Pages are looked at every HIVE_SESSION_CHECK_EVERY_S.
HIVE_SESSION_MAX_TABS = env.int("HIVE_SESSION_MAX_TABS", default=20)
HIVE_SESSION_BUSY_PAGE_S = env.float("HIVE_SESSION_BUSY_PAGE_S", default=10.0)
HIVE_SESSION_MAX_MEMORY_MB = env.int("HIVE_SESSION_MAX_MEMORY_MB", default=1024)
HIVE_SESSION_CHECK_EVERY_S = env.float("HIVE_SESSION_CHECK_EVERY_S", default=2.0)
# Files the browser downloads, kept with the conversation (docs/security.md, "Downloads"): one download at most
# HIVE_DOWNLOAD_MAX_BYTES (stopped on the way once it is known to be larger); a user's downloads together at most
# HIVE_DOWNLOAD_QUOTA_BYTES (0: no quota); a session at most HIVE_DOWNLOADS_AT_ONCE at a time, each at most
# HIVE_DOWNLOAD_TIMEOUT_S.
HIVE_DOWNLOAD_MAX_BYTES = env.int("HIVE_DOWNLOAD_MAX_BYTES", default=50_000_000)
HIVE_DOWNLOAD_QUOTA_BYTES = env.int("HIVE_DOWNLOAD_QUOTA_BYTES", default=1_000_000_000)
HIVE_DOWNLOADS_AT_ONCE = env.int("HIVE_DOWNLOADS_AT_ONCE", default=4)
HIVE_DOWNLOAD_TIMEOUT_S = env.float("HIVE_DOWNLOAD_TIMEOUT_S", default=300.0)
# Runs recorded as Playwright traces (docs/traces.md): off, no run is traced (a failed run then keeps none either).
HIVE_TRACE_RUNS = env.bool("HIVE_TRACE_RUNS", default=True)
