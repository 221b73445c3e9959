"""Talking to an OpenAI-compatible model.

The client, and with it the `openai` SDK (about a second and 40 MB to import), loads on first use: the web server
reads this package for its configuration and prices and never calls a model itself.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agents.llm.config import ModelConfig, NoModelConfiguredError
from agents.llm.providers import PROVIDERS, ProviderPreset, Quirks, preset_for
from agents.llm.results import ChatResult, LLMError, Usage
from agents.llm.toolcalls import ToolCall

if TYPE_CHECKING:
    from agents.llm.client import LLMClient

__all__ = [
    "PROVIDERS",
    "ChatResult",
    "LLMClient",
    "LLMError",
    "ModelConfig",
    "NoModelConfiguredError",
    "ProviderPreset",
    "Quirks",
    "ToolCall",
    "Usage",
    "preset_for",
]


def __getattr__(name: str) -> Any:
    if name == "LLMClient":
        return importlib.import_module("agents.llm.client").LLMClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
