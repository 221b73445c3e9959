"""Summarising a text of any length, none of it left out: over the model's budget it is split into chunks on
paragraph, then sentence, then word boundaries, each chunk summarised by its own call, and the partial summaries
combined (map-reduce, in rounds if even they are over the budget)."""

from __future__ import annotations

import asyncio

from agents.observation import fence
from agents.tools.chunking import estimate_tokens, fit_to_budget, split_into_chunks
from agents.tools.toolmodel import CONCURRENT_CHUNKS, SYSTEM_UNTRUSTED, ToolModel, conversation
from browser_pool.types import JsonObject

SUMMARY_SYSTEM = "You summarise web pages accurately and briefly, keeping names, numbers and facts. " + SYSTEM_UNTRUSTED


def focus_of(arguments: JsonObject) -> str:
    focus = str(arguments.get("focus") or "").strip()
    return f" Focus on: {focus}." if focus else ""


async def summarize_text(model: ToolModel, text: str, budget_tokens: int, focus: str = "") -> tuple[str, int]:
    """(summary, number of chunks). Over the budget: one call per chunk, then the summaries are combined."""
    chunks = [chunk.text.strip() for chunk in split_into_chunks(text, budget_tokens) if chunk.text.strip()]
    if len(chunks) <= 1:
        prompt = f"Summarise this text.{focus}\n\n{fence(chunks[0] if chunks else '', label='text')}"
        return await model.ask(conversation(SUMMARY_SYSTEM, prompt)), 1
    total = len(chunks)
    gate = asyncio.Semaphore(CONCURRENT_CHUNKS)

    async def summarise(number: int, chunk: str) -> str:
        prompt = (
            f"This is part {number} of {total} of a longer text. Summarise this part in a few sentences.{focus}\n\n"
            + fence(chunk, label=f"part {number} of {total}")
        )
        async with gate:
            return await model.ask(conversation(SUMMARY_SYSTEM, prompt))

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(summarise(number, chunk)) for number, chunk in enumerate(chunks, start=1)]
    except ExceptionGroup as failures:  # the first failure is the one to report; the other calls were cancelled
        raise failures.exceptions[0] from None
    return await _combine([task.result() for task in tasks], model, budget_tokens, focus), total


async def _combine(summaries: list[str], model: ToolModel, budget_tokens: int, focus: str) -> str:
    """One call combines the partial summaries; if even they exceed the budget, they are combined in rounds."""
    # Each partial summary keeps to about half the budget, so two fit one call; every round at least halves the list.
    parts = [fit_to_budget(summary, max(1, budget_tokens // 2))[0] for summary in summaries]
    while True:
        groups = _groups(parts, budget_tokens)
        combined = []
        for group in groups:
            blocks = "\n\n".join(fence(part, label=f"summary of part {n}") for n, part in enumerate(group, start=1))
            prompt = (
                f"These are summaries of the {len(group)} consecutive parts of one text, in order. Combine them into "
                f"one summary of the whole text, without repeating yourself.{focus}\n\n{blocks}"
            )
            combined.append(await model.ask(conversation(SUMMARY_SYSTEM, prompt)))
        if len(combined) == 1:
            return combined[0]
        parts = [fit_to_budget(summary, max(1, budget_tokens // 2))[0] for summary in combined]


def _groups(parts: list[str], budget_tokens: int) -> list[list[str]]:
    """Consecutive parts packed into groups that fit one call; at least two to a group, so the rounds end."""
    groups: list[list[str]] = [[]]
    used = 0
    for part in parts:
        cost = estimate_tokens(part)
        if len(groups[-1]) >= 2 and used + cost > budget_tokens:
            groups.append([])
            used = 0
        groups[-1].append(part)
        used += cost
    return groups
