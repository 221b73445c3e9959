"""The server's default model, from the environment. Users can add their own profiles later."""

from decimal import Decimal

import environ

env = environ.Env()

HIVE_LLM_BASE_URL = env("HIVE_LLM_BASE_URL", default="")
HIVE_LLM_API_KEY = env("HIVE_LLM_API_KEY", default="")
HIVE_LLM_MODEL = env("HIVE_LLM_MODEL", default="")
# Which preset the server's model follows (openai, deepseek, qwen, glm, moonshot, ollama, custom), and what it
# can do: most OpenAI-compatible servers call tools; a model without tool calling gets the fenced-JSON protocol.
HIVE_LLM_PROVIDER = env("HIVE_LLM_PROVIDER", default="custom")
HIVE_LLM_TOOLS = env.bool("HIVE_LLM_TOOLS", default=True)
HIVE_LLM_VISION = env.bool("HIVE_LLM_VISION", default=False)
HIVE_LLM_TIMEOUT_S = env.float("HIVE_LLM_TIMEOUT_S", default=120.0)
# The operator's price for the server's model in US dollars per million tokens (both or neither), for a local model
# or one the price table does not know; unset, calls are priced from the table (agents/llm/pricing.py).
HIVE_LLM_PRICE_INPUT_PER_MTOK = env("HIVE_LLM_PRICE_INPUT_PER_MTOK", cast=Decimal, default=None)
HIVE_LLM_PRICE_OUTPUT_PER_MTOK = env("HIVE_LLM_PRICE_OUTPUT_PER_MTOK", cast=Decimal, default=None)
HIVE_MESSAGE_MAX_CHARS = env.int("HIVE_MESSAGE_MAX_CHARS", default=20_000)
# Fernet key for API keys at rest; without it, one is derived from DJANGO_SECRET_KEY.

# The agent's safety valves and policy: limits that end a turn which loops or hangs, how long a confirmation
# waits for its answer, and the domains the agent may or may not open.
HIVE_AGENT_MAX_TOOL_CALLS = env.int("HIVE_AGENT_MAX_TOOL_CALLS", default=30)
HIVE_AGENT_TOOL_TIMEOUT_S = env.float("HIVE_AGENT_TOOL_TIMEOUT_S", default=30.0)
HIVE_AGENT_LOOP_LIMIT = env.int("HIVE_AGENT_LOOP_LIMIT", default=3)
HIVE_CONFIRM_TIMEOUT_S = env.float("HIVE_CONFIRM_TIMEOUT_S", default=120.0)
HIVE_ALLOWED_DOMAINS = env.list("HIVE_ALLOWED_DOMAINS", default=[])
HIVE_DENIED_DOMAINS = env.list("HIVE_DENIED_DOMAINS", default=[])
# Page text one model call may carry when the agent summarises in chunks (tokens, estimated).
HIVE_AGENT_CHUNK_TOKENS = env.int("HIVE_AGENT_CHUNK_TOKENS", default=6_000)
