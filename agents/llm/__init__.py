from agents.llm.client import ChatResult, LLMClient, LLMError, Usage
from agents.llm.config import ModelConfig, NoModelConfiguredError
from agents.llm.providers import PROVIDERS, ProviderPreset, Quirks, preset_for
from agents.llm.toolcalls import ToolCall

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
