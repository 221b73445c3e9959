"""Provider presets: where each provider's OpenAI-compatible endpoint is and what its models can do.

The capability matrix follows seed 004, updated for today's models. A user's profile starts from its
provider's preset and may override each capability.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ProviderPreset:
    label: str
    base_url: str
    supports_tools: bool
    supports_vision: bool
    parallel_tool_calls: bool
    # Tool-call arguments arrive as a JSON string (the OpenAI convention); some servers send an object.
    string_arguments: bool = True


PROVIDERS: dict[str, ProviderPreset] = {
    "openai": ProviderPreset("OpenAI", "https://api.openai.com/v1", True, True, True),
    "deepseek": ProviderPreset("DeepSeek", "https://api.deepseek.com/v1", True, False, False),
    "qwen": ProviderPreset("Qwen", "https://dashscope.aliyuncs.com/compatible-mode/v1", True, True, True),
    "glm": ProviderPreset("GLM", "https://open.bigmodel.cn/api/paas/v4", True, True, False),
    "moonshot": ProviderPreset("Moonshot", "https://api.moonshot.cn/v1", True, False, False),
    "ollama": ProviderPreset("Ollama", "http://localhost:11434/v1", False, False, False, string_arguments=False),
    "custom": ProviderPreset("Custom", "", False, False, False),
}
