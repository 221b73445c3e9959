"""What a model call cost, in US dollars, from the tokens the service reported.

Prices come from genai-prices' table, which ships inside the package: nothing is fetched at run time (its
optional updater, which would download a newer table, is never started). A price the operator or the user set for
a model wins over the table; a model the table does not know, or a local one nobody set a price for, has no price
(None), which the dashboard shows as "price unknown" rather than as free.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from genai_prices import Usage as TableUsage
from genai_prices import calc_price

from agents.llm.providers import preset_for

PER_MILLION = Decimal(1_000_000)


@dataclass(frozen=True, slots=True)
class TokenPrice:
    """A price per million tokens set by hand, for a model the table does not know or a deal of one's own.
    Cached prompt tokens are charged at the input price: a hand-set price cannot know a cache discount."""

    input_per_mtok: Decimal
    output_per_mtok: Decimal

    def cost(self, *, prompt_tokens: int, completion_tokens: int) -> Decimal:
        return (prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok) / PER_MILLION


def table_price(
    *,
    model: str,
    provider: str,
    base_url: str,
    prompt_tokens: int,
    completion_tokens: int,
    cached_tokens: int = 0,
) -> Decimal | None:
    """The table's price of one call, or None when the table does not know the model at that service.

    The service is the one the base URL names when the table knows the model there (a "custom" profile pointing at
    a hosted API is priced as that API), else the provider preset's entry in the table; a preset with none (Qwen's
    DashScope is not in the table; Ollama and custom servers run models locally) has no table price. The model name alone
    is never used to guess a service: a local server may serve a model under a hosted model's name.
    `prompt_tokens` includes `cached_tokens`, as OpenAI-compatible services report them."""
    usage = TableUsage(
        input_tokens=prompt_tokens,
        output_tokens=completion_tokens,
        cache_read_tokens=min(cached_tokens, prompt_tokens),
    )
    try:
        return calc_price(usage, model_ref=model, provider_api_url=base_url).total_price
    except LookupError:
        pass  # the table does not know this address (or not this model there): the preset decides
    table_id = preset_for(provider).price_table
    if table_id is None:
        return None
    try:
        return calc_price(usage, model_ref=model, provider_id=table_id).total_price
    except LookupError:
        return None
