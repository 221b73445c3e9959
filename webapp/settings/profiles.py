"""Browser profiles: sizes, and how one writer at a time is kept (docs/profiles.md)."""

import environ

env = environ.Env()

# A profile's stored state (cookies, local storage, IndexedDB) at most; a bigger save is not written back (logged).
HIVE_PROFILE_MAX_BYTES = env.int("HIVE_PROFILE_MAX_BYTES", default=5_000_000)
# An imported storage-state JSON or cookies.txt at most (the request body limit is 2 MB).
HIVE_PROFILE_IMPORT_MAX_BYTES = env.int("HIVE_PROFILE_IMPORT_MAX_BYTES", default=1_000_000)
# The writer's lease: its worker renews it at every heartbeat, so a dead worker's lease ends after this long.
HIVE_PROFILE_LEASE_S = env.float("HIVE_PROFILE_LEASE_S", default=60.0)
# 0: work that would write a profile another session writes is refused at once (409 naming the holder). More: it is
# queued, and its worker waits up to this long for the other session to let go before failing it with that reason.
HIVE_PROFILE_WRITER_WAIT_S = env.float("HIVE_PROFILE_WRITER_WAIT_S", default=0.0)
# A session writing a profile that nobody uses or watches for this long is closed (saved back first), letting go of
# the profile for other sessions; it comes back from the profile on its next use.
HIVE_PROFILE_WRITER_IDLE_S = env.float("HIVE_PROFILE_WRITER_IDLE_S", default=120.0)
# How long saving a conversation's browser as a profile waits for the worker holding it.
HIVE_PROFILE_CAPTURE_WAIT_S = env.float("HIVE_PROFILE_CAPTURE_WAIT_S", default=30.0)
# How long the agent waits for a person it asked to take over the browser (ask_person: a captcha, a code sent by SMS)
# to hand it back; then it is told nobody came, and ends its turn saying what needs a person.
HIVE_HANDOFF_TIMEOUT_S = env.float("HIVE_HANDOFF_TIMEOUT_S", default=300.0)
