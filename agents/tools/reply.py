"""Generate reply: a reply to a post, written in the voice of one of the user's personas.

The post comes from a web page, so it goes into the prompt fenced as untrusted data: the model answers it, and
never takes orders from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from agents.llm.messages import ChatMessage
from agents.observation import fence
from agents.tools.base import SOURCE_AGENT, Tool, ToolContext, ToolError, ToolOutput
from agents.tools.toolmodel import SYSTEM_UNTRUSTED, ModelClientFactory, conversation, tool_model
from browser_pool.types import JsonObject

REPLY_TIMEOUT_S = 120.0


class Persona(TypedDict):
    """A voice the user writes replies in."""

    id: int | str
    name: str
    voice: str
    instructions: str


def _label(persona: Persona) -> str:
    return f"{persona['id']} ({persona['name']})"


def find_persona(personas: Sequence[Persona], wanted: str) -> Persona:
    """The persona whose id, or else name, is `wanted` (names case-insensitively); ToolError listing them if none."""
    key = wanted.strip()
    for persona in personas:
        if str(persona["id"]) == key:
            return persona
    for persona in personas:
        if str(persona["name"]).casefold() == key.casefold():
            return persona
    raise ToolError(
        f"there is no persona {wanted!r}",
        "call generate_reply again with one of the user's personas: " + ", ".join(_label(p) for p in personas),
    )


def reply_prompt(persona: Persona, post: str, goal: str) -> list[ChatMessage]:
    system = [f"You write replies to social media posts as {persona['name']}."]
    if str(persona.get("voice") or "").strip():
        system.append(f"Voice: {str(persona['voice']).strip()}")
    if str(persona.get("instructions") or "").strip():
        system.append(f"Instructions: {str(persona['instructions']).strip()}")
    system.append("Write only the reply, ready to post: no preamble, no quotation marks around it.")
    system.append(SYSTEM_UNTRUSTED)
    user = (f"What the reply should achieve: {goal.strip()}\n\n" if goal.strip() else "") + (
        "The post to reply to:\n" + fence(post.strip(), label="post")
    )
    return conversation("\n".join(system), user)


def reply_tools(*, personas: Sequence[Persona], model_client_factory: ModelClientFactory) -> list[Tool]:
    """generate_reply with the user's `personas`; none when there are none."""
    for persona in personas:
        if "id" not in persona or not str(persona.get("name") or "").strip():
            raise ValueError(f"a persona needs an id and a name: {persona!r}")
    if not personas:
        return []

    async def run(arguments: JsonObject, ctx: ToolContext) -> ToolOutput:
        persona = find_persona(personas, str(arguments["persona"]))
        messages = reply_prompt(persona, arguments["post"], str(arguments.get("goal") or ""))
        async with tool_model(model_client_factory, ctx, "generate_reply") as model:
            reply = (await model.ask(messages)).strip()
        if not reply:
            raise ToolError("the model wrote an empty reply", "try again, perhaps with a clearer goal")
        return ToolOutput(
            text=f"Draft reply as {persona['name']}:\n{reply}",
            data={"persona": persona["id"], "reply": reply, **model.stats()},
        )

    listing = "; ".join(f"{_label(p)}: {str(p.get('voice') or '').strip()[:80] or 'no voice set'}" for p in personas)
    return [
        Tool(
            name="generate_reply",
            description=(
                "Write a reply to a post (e.g. on social media) in the voice of one of the user's personas. "
                f"Personas: {listing}."
            ),
            parameters={
                "type": "object",
                "properties": {
                    "post": {"type": "string", "minLength": 1, "description": "The text of the post to reply to."},
                    "persona": {"type": ["string", "integer"], "description": "The persona's id or name."},
                    "goal": {"type": "string", "description": "What the reply should achieve (optional)."},
                },
                "required": ["post", "persona"],
                "additionalProperties": False,
            },
            handler=run,
            read_only=True,
            source=SOURCE_AGENT,
            timeout_s=REPLY_TIMEOUT_S,
        )
    ]
