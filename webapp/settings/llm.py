"""The server's default model, from the environment. Users can add their own profiles later."""

import environ

env = environ.Env()

HIVE_LLM_BASE_URL = env("HIVE_LLM_BASE_URL", default="")
HIVE_LLM_API_KEY = env("HIVE_LLM_API_KEY", default="")
HIVE_LLM_MODEL = env("HIVE_LLM_MODEL", default="")
HIVE_LLM_TIMEOUT_S = env.float("HIVE_LLM_TIMEOUT_S", default=120.0)
HIVE_MESSAGE_MAX_CHARS = env.int("HIVE_MESSAGE_MAX_CHARS", default=20_000)
