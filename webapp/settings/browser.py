"""The worker's browser pool and the live view."""

import environ

env = environ.Env()

# 0 means "from memory" (about 90 MB per session, three quarters of the machine).
HIVE_POOL_MAX_SESSIONS = env.int("HIVE_POOL_MAX_SESSIONS", default=0)
HIVE_POOL_WARM_CONTEXTS = env.int("HIVE_POOL_WARM_CONTEXTS", default=2)
HIVE_POOL_IDLE_TIMEOUT_S = env.float("HIVE_POOL_IDLE_TIMEOUT_S", default=600.0)
HIVE_LIVE_VIEW_FPS = env.float("HIVE_LIVE_VIEW_FPS", default=12.0)
HIVE_UPLOAD_MAX_BYTES = env.int("HIVE_UPLOAD_MAX_BYTES", default=20_000_000)
# The page size of a tab's main content for the model (SPEC §4): content is kept whole, and a longer text reaches the
# model in pages of at most this many characters (get_page_content page=2, ...), each saying where it sits.
HIVE_CONTENT_LIMIT = env.int("HIVE_CONTENT_LIMIT", default=10_000)
