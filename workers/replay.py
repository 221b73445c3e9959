"""Replaying a saved workflow in a conversation's browser, without a model while the page allows it.

Each recorded step is found again on the page as it is now (browser_pool.replay: the recorded selector, stable
attributes, role and name, label, text, XPath, in that order, accepting only an element that agrees with the
record, displayed and enabled) on the page its URL check names, and done with its parameters filled in, recorded as
a step with a screenshot like any other; its effect is checked after (webapp.workflows.steps: navigated, value
held, element gone). An extraction step asks the model to read the page and keeps the result as the run's output.

Each step follows the agent's safety policy: a blocked address is refused, and a confirm-level step (execute_js,
upload_file, a submit on a sensitive page) waits for the user's yes in the dashboard; no answer in time is a no.

A step whose element cannot be found, or whose action fails, is healed: the agent (the conversation's model) gets
the step's intent, the parameters and the page as it is, and does that one step; the replay goes on after it. The
steps the agent took replace the broken one in a new version of the workflow, so the next replay needs no model.
When healing fails (no model configured, or the agent says it cannot), the replay fails with the step and why.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings
from playwright.async_api import Error as PlaywrightError

from agents.events import ConfirmationRequest
from agents.llm import LLMClient, LLMError, NoModelConfiguredError, Usage
from agents.loop import run_agent_turn
from agents.tools.base import SOURCE_BROWSER, Tool, ToolContext, ToolError
from agents.tools.browser import fill, without_secrets
from agents.tools.content import content_tools
from browser_pool.actions import ACTIONS, execute_action
from browser_pool.errors import BrowserCrashedError
from browser_pool.replay import find_target
from browser_pool.session import Session
from browser_pool.types import ActionResult
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.conversations.models import Conversation
from webapp.core.exceptions import ApplicationError
from webapp.llm.selectors import models_for_conversation
from webapp.runs.models import Run, Step
from webapp.workflows.models import WorkflowVersion
from webapp.workflows.notify import confirmation_wanted
from webapp.workflows.services import masked, run_output_set, secret_names, secrets_resolve, workflow_version_add
from webapp.workflows.steps import (
    EXTRACT,
    WorkflowStep,
    as_steps,
    checks_of,
    healed_steps,
    is_secret_field,
    value_held,
)
from workers.manual import Asking, page_screenshot, policy_refusal
from workers.policy import agent_config
from workers.sink import WorkerSink
from workers.turns import finish

# After the page has loaded, an element drawn by its scripts gets this long to appear before the step is healed.
FIND_WAIT_S = 1.5
LOAD_WAIT_S = 10.0
FIND_POLL_S = 0.1
# Tool calls the agent may make to heal one step.
HEAL_MAX_TOOL_CALLS = 8
CANNOT = "CANNOT:"
SECRETS_NOTE = """
Secret parameters are hidden from you; to type one, type its placeholder exactly ({names}): the browser fills in
the value."""
HEAL_PROMPT = """A saved workflow is being replayed in this browser, and one of its steps no longer fits the page.

Step {number} of {total}: {intent}
Recorded action: {action} with {arguments}
It aimed at: {target}
Why it could not be replayed: {reason}
The workflow's parameters: {values}{secrets}

Do what this one step was meant to do on the page as it is now (look at the page first: get_elements), and nothing
after it: the replay goes on with the next step by itself. Then answer "done". If the step cannot be done on this
page, do nothing and answer "{cannot} " followed by the reason."""


@dataclass(slots=True)
class Healing:
    steps: list[WorkflowStep]
    error: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0


def _url_now(session: Session) -> str:
    return session.active_page.url.split("#", 1)[0]


async def _find(session: Session, recorded: WorkflowStep) -> tuple[int | None, str]:
    """The step's preconditions: the page's address fits the recorded pattern, and its element is there, unique,
    displayed and (for an action that works it) enabled; polled a moment while the page draws itself."""
    pattern = str(checks_of(recorded).get("url") or "")
    target = recorded.get("target")
    deadline = time.monotonic() + FIND_WAIT_S
    while True:
        page = session.active_page
        with contextlib.suppress(PlaywrightError):
            await page.wait_for_load_state("load", timeout=LOAD_WAIT_S * 1000)
        index, reason = None, ""
        if pattern and not fnmatch.fnmatchcase(_url_now(session), pattern):
            reason = f"the page is {_url_now(session)}, not {pattern} where the step was recorded"
        elif target:
            found = await find_target(page, target, recorded["action"])
            index = found.index
            if index is None:
                reason = f"its element is not on {page.url}: {found.how} ({'; '.join(found.tried) or 'no way to try'})"
        if not reason or time.monotonic() > deadline:
            return index, reason
        await page.wait_for_timeout(FIND_POLL_S * 1000)


def _effect_missing(recorded: WorkflowStep, arguments: dict[str, object], result: ActionResult) -> str:
    """Why the step did not have the effect it had when recorded, or ""."""
    checks = checks_of(recorded)
    action = str(recorded["action"])
    if checks.get("navigated") and not result.navigated:
        return "it did not lead to another page, as it did when recorded"
    if checks.get("value"):
        password = is_secret_field(recorded["target"] or {})
        if not value_held(action, arguments, result.data, password):
            return "the field does not hold the value afterwards, as it did when recorded"
    if checks.get("gone") and not (result.navigated or (result.target or {}).get("gone_after")):
        return "the element is still there afterwards; when recorded, it went away"
    return ""


def _last_index(run_id: int) -> int:
    return Step.objects.filter(run_id=run_id).order_by("-index").values_list("index", flat=True).first() or -1


def _steps_after(run_id: int, index: int) -> list[Step]:
    return list(Step.objects.filter(run_id=run_id, index__gt=index).order_by("index"))


async def heal(
    run: Run, session: Session, sink: WorkerSink, recorded: WorkflowStep, values: dict[str, str], *,
    number: int, total: int, reason: str, secrets: dict[str, str],
) -> Healing:  # fmt: skip
    """The agent does the step the replay could not; its steps come back as the step's replacement. It never sees a
    secret parameter's value: it types `{{name}}`, which the browser tools fill in (and mask in what they report)."""
    conversation = await database_sync_to_async(Conversation.objects.get)(pk=run.conversation_id)
    try:
        model, fallback = await database_sync_to_async(models_for_conversation)(
            profile_id=conversation.model_profile_id
        )
    except NoModelConfiguredError as exc:
        return Healing([], f"it needs healing, and no model is configured to heal it ({exc})")
    config = agent_config(conversation, model, fallback, max_tool_calls=HEAL_MAX_TOOL_CALLS)
    target = recorded["target"] or {}
    prompt = HEAL_PROMPT.format(
        number=number, total=total, intent=recorded.get("intent") or recorded["action"], action=recorded["action"],
        arguments=json.dumps(fill(recorded["arguments"], values), ensure_ascii=False),
        target=json.dumps({k: target.get(k) for k in ("tag", "role", "name", "attributes")}, ensure_ascii=False),
        reason=reason, values=json.dumps(values, ensure_ascii=False), cannot=CANNOT,
        secrets=SECRETS_NOTE.format(names=", ".join("{{" + name + "}}" for name in secrets)) if secrets else "",
    )  # fmt: skip
    before = await database_sync_to_async(_last_index)(run.pk)
    web_tools = sink.web_tools

    async def page_tools() -> list[Tool]:
        return web_tools.agent_tools(run.conversation_id) if web_tools is not None else []

    uploads = await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
    try:
        result = await run_agent_turn(config=config, history=[("user", prompt)], tabs=session, sink=sink,
                                      uploads=uploads, page_tools=page_tools, secrets=secrets)  # fmt: skip
    except LLMError as exc:
        return Healing([], f"healing it failed: {exc}")
    tokens = {"prompt_tokens": result.usage.prompt_tokens, "completion_tokens": result.usage.completion_tokens}
    if result.reply.strip().startswith(CANNOT):
        return Healing([], "the agent could not heal it: " + result.reply.strip()[len(CANNOT) :].strip(), **tokens)
    taken = await database_sync_to_async(_steps_after)(run.pk, before)
    steps = healed_steps(taken, values, str(recorded.get("intent") or recorded["action"]))
    if not steps:
        return Healing([], "the agent did not do anything a replay could repeat", **tokens)
    return Healing(steps, **tokens)  # type: ignore[arg-type]


def _asking(run: Run, mask: Callable[[str], str]) -> Asking | None:
    """A scheduled replay: nobody watches it, so its schedule says whether a step that needs a yes waits for the
    owner (who is told by e-mail and the webhook) or is refused at once."""
    if not run.metadata.get("schedule"):
        return None
    if run.metadata.get("confirmations") == "refuse":
        return Asking(refuse="this scheduled replay does not wait for one (its schedule says refuse)")

    async def tell(request: ConfirmationRequest, timeout_s: float) -> None:
        await database_sync_to_async(confirmation_wanted)(
            run_id=run.pk, action=request.action, reason=mask(request.reason), url=request.url, timeout_s=timeout_s
        )

    return Asking(timeout_s=settings.HIVE_SCHEDULED_CONFIRM_TIMEOUT_S, tell=tell)


async def extract(run: Run, session: Session, sink: WorkerSink, recorded: WorkflowStep) -> tuple[object, Usage]:
    """An extraction step: the agent's extract_data with the step's instruction, its result made to fit the kept
    schema. The one kind of step that asks the model: reading meaning off a page is what it is for."""
    conversation = await database_sync_to_async(Conversation.objects.get)(pk=run.conversation_id)
    model, _ = await database_sync_to_async(models_for_conversation)(profile_id=conversation.model_profile_id)
    tool = next(
        t
        for t in content_tools(
            page_chars=settings.HIVE_CONTENT_LIMIT,
            model_client_factory=lambda: LLMClient(model),
            budget_tokens=settings.HIVE_AGENT_CHUNK_TOKENS,
        )
        if t.name == EXTRACT
    )
    arguments = dict(recorded["arguments"])
    kept = recorded.get("output")
    schema = kept["schema"] if kept else None
    if schema and arguments.get("format", "json") == "json":
        arguments["schema"] = schema
    ctx = ToolContext(tabs=session, sink=sink, uploads={}, action_timeout_ms=5000)
    async with asyncio.timeout(tool.timeout_s or 120):
        output = await tool.handler(arguments, ctx)
    used = output.data.get("usage") or {}
    return output.data.get("value"), Usage(int(used.get("prompt_tokens", 0)), int(used.get("completion_tokens", 0)))


async def replay_workflow(run: Run, session: Session, sink: WorkerSink) -> None:
    version = await database_sync_to_async(WorkflowVersion.objects.select_related("workflow").get)(
        pk=run.metadata["version_id"]
    )
    given = {str(k): str(v) for k, v in (run.metadata.get("parameters") or {}).items()}
    try:
        # Secrets come from the credential store of the person who started the run, whoever owns the conversation,
        # here on the worker; everything shown has them masked.
        values = await database_sync_to_async(secrets_resolve)(run_id=run.pk, version=version, values=given)
    except ApplicationError as exc:
        await finish(run.pk, Run.Status.FAILED, exc.message)
        return
    shown = masked(given, version)
    secrets = {name: values[name] for name in secret_names(version)}

    def mask(text: str) -> str:
        return without_secrets(text, secrets)

    uploads = await database_sync_to_async(conversation_uploads)(conversation_id=run.conversation_id)
    asking = _asking(run, mask)
    total = len(version.steps)
    kept: list[WorkflowStep] = []
    healed: list[int] = []
    tokens = [0, 0]

    async def fail(error: str) -> None:
        await finish(run.pk, Run.Status.FAILED, error, prompt=tokens[0], completion=tokens[1])

    for number, recorded in enumerate(as_steps(version.steps), 1):
        action = str(recorded["action"])
        arguments = fill(dict(recorded.get("arguments") or {}), values)
        intent = recorded.get("intent") or action
        step_id = await sink.step_started(
            kind=Step.Kind.ACTION, action=action, arguments=fill(dict(recorded.get("arguments") or {}), shown)
        )
        started = time.monotonic()

        def took() -> int:
            return int((time.monotonic() - started) * 1000)  # noqa: B023 (called within the iteration)

        if action == EXTRACT:
            try:
                value, usage = await extract(run, session, sink, recorded)
            except (ToolError, LLMError, NoModelConfiguredError, TimeoutError) as exc:
                error = f"Step {number} of {total} ({intent}): the extraction failed: {getattr(exc, 'error', exc)}"
                await sink.step_finished(step_id, ok=False, error=mask(error), duration_ms=took())
                await fail(mask(error))
                return
            tokens[0] += usage.prompt_tokens
            tokens[1] += usage.completion_tokens
            output = recorded.get("output")
            name = output["name"] if output else f"step_{number}"
            await database_sync_to_async(run_output_set)(run_id=run.pk, name=name, value=value)
            observation = json.dumps({"ok": True, "action": action, "output": name, "value": value},
                                     ensure_ascii=False, default=str)  # fmt: skip
            await sink.step_finished(step_id, ok=True, observation=mask(observation), duration_ms=took())
            kept.append(recorded)
            continue
        index, problem = await _find(session, recorded)
        if index is not None:
            arguments = {**arguments, "index": index}
        if not problem:
            spec = ACTIONS.get(action)
            refusal = await policy_refusal(
                run, session, sink, step_id, action, arguments, source=SOURCE_BROWSER,
                read_only=bool(spec and spec.read_only), asking=asking,
            )  # fmt: skip
            if refusal:
                # A "no" from the user (or the policy) is an answer, not a page change: nothing to heal.
                error = f"Step {number} of {total} ({intent}): {mask(refusal)}"
                await sink.step_finished(step_id, ok=False, error=error, duration_ms=took())
                await fail(error)
                return
            result = await execute_action(session, action, arguments, uploads=uploads)
            if not result.ok and await session.lost_within(1.0):
                raise BrowserCrashedError(session.lost_reason or "the browser crashed")
            problem = f"it failed: {mask(result.error)}" if not result.ok else _effect_missing(recorded, arguments,
                                                                                               result)  # fmt: skip
            await sink.step_finished(
                step_id,
                ok=not problem,
                observation=mask(json.dumps(result.as_dict(), ensure_ascii=False, default=str)),
                error=f"Step {number} of {total} ({intent}): {problem}" if problem else "",
                duration_ms=took(),
                screenshot=result.screenshot or await page_screenshot(session),
                target=result.target,
            )
            if not problem:
                kept.append(recorded)
                continue
        else:
            await sink.step_finished(
                step_id, ok=False, error=f"Step {number} of {total} ({intent}): {problem}", duration_ms=took(),
                screenshot=await page_screenshot(session),
            )  # fmt: skip
        await sink.notify(f"Step {number} ({intent}) no longer fits the page; the agent heals it.")
        healing = await heal(run, session, sink, recorded, shown, number=number, total=total, reason=problem,
                             secrets=secrets)  # fmt: skip
        tokens[0] += healing.prompt_tokens
        tokens[1] += healing.completion_tokens
        if healing.error:
            await fail(f"Step {number} of {total} ({intent}): {problem}; {healing.error}")
            return
        kept.extend(healing.steps)
        healed.append(number)
    if healed:
        note = f"Healed step{'s' if len(healed) > 1 else ''} {', '.join(map(str, healed))} in run {run.pk}"
        await database_sync_to_async(workflow_version_add)(version=version, steps=kept, note=note)
    await finish(run.pk, Run.Status.SUCCEEDED, prompt=tokens[0], completion=tokens[1])
