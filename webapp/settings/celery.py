"""Celery: Redis broker, acks late so a crashed worker's turn is not silently dropped."""

import environ

env = environ.Env()

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")

CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The threads only hand runs to the worker's event loop and wait: with few of them, runs queue behind long turns
# while the loop sits idle (bench/load.py). `-c` on the command line overrides this.
CELERY_WORKER_CONCURRENCY = env.int("WORKER_CONCURRENCY", default=16)
CELERY_TASK_DEFAULT_QUEUE = "hive"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_ALWAYS_EAGER = False

# Retention in days (0 keeps forever), applied every day by Celery beat (`make run` and compose run it) and by
# `manage.py prune`.
HIVE_RETAIN_SCREENSHOTS_DAYS = env.int("HIVE_RETAIN_SCREENSHOTS_DAYS", default=30)
HIVE_RETAIN_UPLOADS_DAYS = env.int("HIVE_RETAIN_UPLOADS_DAYS", default=30)
HIVE_RETAIN_DOWNLOADS_DAYS = env.int("HIVE_RETAIN_DOWNLOADS_DAYS", default=30)
HIVE_RETAIN_MODEL_LOGS_DAYS = env.int("HIVE_RETAIN_MODEL_LOGS_DAYS", default=30)
HIVE_RETAIN_TRACES_DAYS = env.int("HIVE_RETAIN_TRACES_DAYS", default=30)
# Beat reads its schedule from the database (django-celery-beat): the fixed jobs below and every workflow schedule.
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    "prune": {"task": "workers.tasks.prune", "schedule": 24 * 3600.0, "options": {"queue": "hive"}},
}

# A worker heartbeats its id in Redis; a run whose worker's heartbeat has expired is failed by the reaper.
HIVE_WORKER_HEARTBEAT_S = env.float("HIVE_WORKER_HEARTBEAT_S", default=5.0)
HIVE_WORKER_HEARTBEAT_TTL_S = env.float("HIVE_WORKER_HEARTBEAT_TTL_S", default=20.0)
# How often the reaper runs (on every worker's loop, and sent by Celery beat): a run whose worker died is failed
# within about TTL + period, or twice the TTL just after Redis restarted.
HIVE_REAP_PERIOD_S = env.float("HIVE_REAP_PERIOD_S", default=10.0)
CELERY_BEAT_SCHEDULE["reap"] = {
    "task": "workers.tasks.reap",
    "schedule": HIVE_REAP_PERIOD_S,
    "options": {"queue": "hive", "expires": HIVE_REAP_PERIOD_S},
}
# A queued run no worker has taken is sent again after this long (its message may have been lost with Redis),
# and failed with a reason after the second bound, so nothing stays "queued" forever.
# Presence and control entries in Redis expire unless the sockets behind them refresh them (a crashed web process
# leaves no stale viewer or holder behind for longer than the TTL).
HIVE_PRESENCE_TTL_S = env.int("HIVE_PRESENCE_TTL_S", default=90)
HIVE_PRESENCE_REFRESH_S = env.float("HIVE_PRESENCE_REFRESH_S", default=30.0)
HIVE_QUEUED_RESEND_S = env.float("HIVE_QUEUED_RESEND_S", default=60.0)
HIVE_QUEUED_GIVE_UP_S = env.float("HIVE_QUEUED_GIVE_UP_S", default=900.0)
# Time limits (workers/limits.py): the agent ends a turn gracefully at HIVE_TURN_TIMEOUT_S, the worker cancels it
# HIVE_TURN_GRACE_S later, and the Celery task stops waiting HIVE_HARD_KILL_S after that.
HIVE_TURN_TIMEOUT_S = env.float("HIVE_TURN_TIMEOUT_S", default=600.0)
HIVE_TURN_GRACE_S = env.float("HIVE_TURN_GRACE_S", default=30.0)
HIVE_HARD_KILL_S = env.float("HIVE_HARD_KILL_S", default=30.0)
HIVE_ACTION_TIMEOUT_S = env.float("HIVE_ACTION_TIMEOUT_S", default=115.0)
