"""Provider presets: where each OpenAI-compatible service lives, what it can do, and how it deviates.

Each preset says whether the service calls functions, sees images and calls tools in parallel; a model profile
may override any capability, because what a provider can do depends on the model picked (qwen-vl sees,
qwen-max does not; some Ollama models call tools).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Quirks:
    """How a provider's OpenAI compatibility differs, as far as the agent cares."""

    # Whether the request may carry `parallel_tool_calls` (others reject unknown parameters or ignore it).
    accepts_parallel_param: bool = False
    # Moonshot's examples name the function in tool messages; others only want `tool_call_id`.
    tool_message_name: bool = False
    # Sent as-is with every request (e.g. Qwen's web search would compete with our tools).
    extra_body: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ProviderPreset:
    label: str
    base_url: str
    supports_tools: bool
    supports_vision: bool
    parallel_tool_calls: bool
    quirks: Quirks = field(default_factory=Quirks)
    # The service's id in genai-prices' table (agents/llm/pricing.py); None: the table has no prices for it.
    price_table: str | None = None


PROVIDERS: dict[str, ProviderPreset] = {
    "openai": ProviderPreset("OpenAI", "https://api.openai.com/v1", True, True, True,
                             Quirks(accepts_parallel_param=True), price_table="openai"),
    # No image input; deepseek-reasoner streams `reasoning_content` (never sent back: DeepSeek rejects it).
    "deepseek": ProviderPreset("DeepSeek", "https://api.deepseek.com/v1", True, False, False, price_table="deepseek"),
    # DashScope's compatible mode; vision depends on the model (qwen-vl-*), the preset assumes it. Its web
    # search would compete with the agent's own browsing. The price table has no DashScope prices: a Qwen profile
    # is priced by the price set on it.
    "qwen": ProviderPreset("Qwen", "https://dashscope.aliyuncs.com/compatible-mode/v1", True, True, True,
                           Quirks(accepts_parallel_param=True, extra_body={"enable_search": False})),
    # Zhipu wants `arguments` as a JSON string (we always send strings) and may answer with an object.
    "glm": ProviderPreset("GLM", "https://open.bigmodel.cn/api/paas/v4", True, True, False, price_table="zhipuai"),
    # Parallel tool calls are unreliable on Moonshot, so the agent asks for one call at a time.
    "moonshot": ProviderPreset("Moonshot", "https://api.moonshot.cn/v1", True, False, False,
                               Quirks(tool_message_name=True), price_table="moonshotai"),
    # Tool calling depends on the local model; off by default, the fenced-JSON protocol works with all of them.
    "ollama": ProviderPreset("Ollama", "http://localhost:11434/v1", False, False, False),
    # Any other OpenAI-compatible server (vLLM, LM Studio ...): assume nothing until the profile says so,
    # since e.g. vLLM rejects `tools` unless it was started with tool parsing enabled.
    "custom": ProviderPreset("Custom", "", False, False, False),
}  # fmt: skip


def preset_for(provider: str) -> ProviderPreset:
    """The preset of a provider name (case-insensitive); unknown names are treated as custom."""
    return PROVIDERS.get(provider.strip().lower(), PROVIDERS["custom"])
