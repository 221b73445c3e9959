"""Which model to talk to, and how."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from agents.llm.pricing import TokenPrice, table_price
from agents.llm.providers import ProviderPreset, Quirks, preset_for
from browser_pool.net.policy import EgressPolicy

NO_MODEL_MESSAGE = (
    "No model is configured. Add a model profile in the dashboard's settings, or set HIVE_LLM_BASE_URL, "
    "HIVE_LLM_API_KEY and HIVE_LLM_MODEL on the server."
)


class NoModelConfiguredError(Exception):
    def __init__(self) -> None:
        super().__init__(NO_MODEL_MESSAGE)


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """One model endpoint. A capability left at None comes from the provider's preset."""

    base_url: str
    model: str
    api_key: str = ""
    provider: str = "custom"
    timeout_s: float = 120.0
    max_retries: int = 3
    supports_tools: bool | None = None
    supports_vision: bool | None = None
    parallel_tool_calls: bool | None = None
    # A price per million tokens the operator or the user set; None: the price table's (agents/llm/pricing.py).
    price: TokenPrice | None = None
    # The address policy every connection to this endpoint must pass (None: unchecked, for the library alone).
    egress: EgressPolicy | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_values(
        cls,
        *,
        base_url: str,
        model: str,
        api_key: str = "",
        timeout_s: float = 120.0,
        provider: str = "custom",
        supports_tools: bool | None = None,
        supports_vision: bool | None = None,
        parallel_tool_calls: bool | None = None,
        price: TokenPrice | None = None,
    ) -> ModelConfig:
        """The server default: usable when a model name is set and a base URL is given or known for the provider."""
        url = base_url.strip() or preset_for(provider).base_url
        if not url or not model.strip():
            raise NoModelConfiguredError
        return cls(
            base_url=url,
            model=model.strip(),
            api_key=api_key,
            provider=provider.strip().lower() or "custom",
            timeout_s=timeout_s,
            supports_tools=supports_tools,
            supports_vision=supports_vision,
            parallel_tool_calls=parallel_tool_calls,
            price=price,
        )

    @property
    def preset(self) -> ProviderPreset:
        return preset_for(self.provider)

    @property
    def quirks(self) -> Quirks:
        return self.preset.quirks

    @property
    def uses_tool_calling(self) -> bool:
        """Native function calling; otherwise tools are described in the prompt and called in fenced JSON."""
        return self.preset.supports_tools if self.supports_tools is None else self.supports_tools

    @property
    def sees_images(self) -> bool:
        return self.preset.supports_vision if self.supports_vision is None else self.supports_vision

    @property
    def calls_tools_in_parallel(self) -> bool:
        return self.preset.parallel_tool_calls if self.parallel_tool_calls is None else self.parallel_tool_calls

    @property
    def endpoint(self) -> str:
        """The base URL the client uses: the profile's, else the provider's."""
        return self.base_url.strip() or self.preset.base_url

    def cost(self, *, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> Decimal | None:
        """What a call with this usage cost in US dollars: the price set by hand, else the table's; None: unknown."""
        if self.price is not None:
            return self.price.cost(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)
        return table_price(
            model=self.model,
            provider=self.provider,
            base_url=self.endpoint,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cached_tokens=cached_tokens,
        )

    def describe(self) -> str:
        """How errors name this model to the user."""
        return f"{self.model} at {self.endpoint}"
