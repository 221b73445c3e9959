"""Hive as a remote MCP server (`/mcp`), and workflow webhooks."""

import environ

env = environ.Env()

# A client's conversation (and the session of the older handshake) is forgotten after this long without a call;
# the browser session itself is released by the pool's own idle timeout (HIVE_POOL_IDLE_TIMEOUT_S).
HIVE_MCP_IDLE_S = env.float("HIVE_MCP_IDLE_S", default=1800.0)
# One browser action or read, queue wait included; run_task, the agent's whole turn.
HIVE_MCP_CALL_TIMEOUT_S = env.float("HIVE_MCP_CALL_TIMEOUT_S", default=120.0)
HIVE_MCP_TASK_TIMEOUT_S = env.float("HIVE_MCP_TASK_TIMEOUT_S", default=900.0)
# Open sessions of the older handshake per web process.
HIVE_MCP_MAX_SESSIONS = env.int("HIVE_MCP_MAX_SESSIONS", default=1000)

# Workflow completion webhooks: attempts in all, and the first retry's delay (doubling after each failure).
HIVE_WEBHOOK_ATTEMPTS = env.int("HIVE_WEBHOOK_ATTEMPTS", default=5)
HIVE_WEBHOOK_BACKOFF_S = env.float("HIVE_WEBHOOK_BACKOFF_S", default=5.0)

# A scheduled replay that waits for the owner's yes: how long it waits (the dashboard's confirmations otherwise wait
# HIVE_CONFIRM_TIMEOUT_S), and how the owner is told (an e-mail to their address, and the workflow's webhook).
HIVE_SCHEDULED_CONFIRM_TIMEOUT_S = env.float("HIVE_SCHEDULED_CONFIRM_TIMEOUT_S", default=3600.0)
# E-mail: a URL (smtp://user:password@host:587, smtp+tls://…, consolemail://, filemail:///path); the console by default.
vars().update(env.email_url("HIVE_EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("HIVE_EMAIL_FROM", default="hive@localhost")
# Where people open the dashboard, for links in e-mails; the first of Hive's own origins unless set.
HIVE_PUBLIC_URL = env.str("HIVE_PUBLIC_URL", default="")
