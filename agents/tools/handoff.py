"""ask_person: the agent hands the browser to a person for what it cannot do itself (a captcha, a code sent by SMS
that no credential holds), waits until they hand it back, then goes on from the page as they left it.

How the person is asked and how long the agent waits is the host's: it is given an `AskPerson` that returns what
became of the request, in words for the model. The wait always ends (handed back, declined or timed out); the tool
never hangs a turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolError, ToolOutput
from browser_pool.types import JsonObject

Outcome = Literal["handed_back", "declined", "timed_out"]

REASON_MAX_CHARS = 500
# Past the host's own wait: the host answers first, this only stops a host that never does.
WAIT_MARGIN_S = 30.0


@dataclass(frozen=True, slots=True)
class HandOff:
    """What became of a request for a person."""

    outcome: Outcome
    # Who answered, "" when nobody did.
    person: str = ""


# The reason the person reads, and the page it is about; returns once the request ended.
AskPerson = Callable[[str, str], Awaitable[HandOff]]


def _result(handoff: HandOff, wait_s: float) -> ToolOutput:
    who = handoff.person or "The person"
    if handoff.outcome == "handed_back":
        return ToolOutput(
            text=f"{who} did what you asked for in the browser and handed it back. The page may have changed: "
            "look at it and go on with the task.",
            page_changed=True,
            data={"outcome": handoff.outcome, "person": handoff.person},
        )
    if handoff.outcome == "declined":
        raise ToolError(
            f"{who} answered that they will not do it",
            "do not ask again for the same thing; tell the user what could not be done and why",
        )
    raise ToolError(
        f"nobody took over the browser within {wait_s:g} s",
        "tell the user what needs a person (they were notified) and stop here; they can ask you again later",
    )


def handoff_tools(*, ask: AskPerson, wait_s: float) -> list[Tool]:
    """ask_person, asking through `ask`, which waits at most `wait_s` seconds."""

    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        reason = str(arguments["reason"]).strip()
        if not reason:
            raise ToolError("the reason is empty", "say in one sentence what the person should do in the browser")
        try:
            url = ctx.tabs.active_page.url
        except Exception:  # no page open: the person still reads the reason
            url = ""
        return _result(await ask(reason[:REASON_MAX_CHARS], url), wait_s)

    return [
        Tool(
            name="ask_person",
            description=(
                "Ask a person to take over the browser for a step you cannot do: a captcha, a code sent to the user's "
                "phone or e-mail that no credential holds, a login that needs them. The user is notified; you wait "
                f"(at most {wait_s:g} s) until they hand the browser back, then go on from the page as they left it. "
                "Do not use it for what you can do yourself, nor to ask a question (answer instead)."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "reason": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": REASON_MAX_CHARS,
                        "description": "What the person should do in the browser, in one sentence they understand.",
                    }
                },
                "required": ["reason"],
                "additionalProperties": False,
            },
            handler=run,
            read_only=False,
            source=SOURCE_AGENT,
            timeout_s=wait_s + WAIT_MARGIN_S,
        )
    ]
