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
