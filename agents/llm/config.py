"""Which model to talk to, and how."""

from __future__ import annotations

from dataclasses import dataclass

NO_MODEL_MESSAGE = (
    "No model is configured. Add a model profile in the dashboard's settings, or set HIVE_LLM_BASE_URL, "
    "HIVE_LLM_API_KEY and HIVE_LLM_MODEL on the server."
)


class NoModelConfiguredError(Exception):
    def __init__(self) -> None:
        super().__init__(NO_MODEL_MESSAGE)


@dataclass(frozen=True, slots=True)
class ModelConfig:
    base_url: str
    model: str
    api_key: str = ""
    provider: str = "custom"
    timeout_s: float = 120.0
    max_retries: int = 3

    @classmethod
    def from_values(cls, *, base_url: str, model: str, api_key: str = "", timeout_s: float = 120.0) -> ModelConfig:
        """The server default: usable only when both a base URL and a model name are set."""
        if not base_url.strip() or not model.strip():
            raise NoModelConfiguredError
        return cls(base_url=base_url.strip(), model=model.strip(), api_key=api_key, timeout_s=timeout_s)
