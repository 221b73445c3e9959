"""Replaying a saved workflow in a conversation's browser, without a model while the page allows it: for each step,
find it, run it, check it; heal it when it no longer fits.

Each recorded step is one step for the step executor (`agents.step.run_step`, with `workers.steps`' context), so it
is judged, confirmed, done, masked and recorded like the agent's: before it acts, its element is found again on the
page as it is now (browser_pool.replay: the recorded selector, stable attributes, role and name, label, text, XPath,
in that order, accepting only an element that agrees with the record, displayed and enabled) on the page its URL
check names; its parameters are filled in (secret ones at the moment of typing, masked in everything shown); after it,
its effect is checked (webapp.workflows.steps: navigated, value held, element gone). An extraction step asks the
model to read the page and keeps the result as the run's output.

Each step follows the agent's safety policy: a blocked address is refused, and a confirm-level step (execute_js,
upload_file, a submit on a sensitive page) waits for the user's yes in the dashboard (a scheduled replay refuses it,
or waits longer and tells the owner, as its schedule says); no answer in time is a no, and a no ends the replay.

A step whose element cannot be found, or whose action or check fails, is healed: the agent (the conversation's model)
gets the step's intent, the parameters and the page as it is, and does that one step; the replay goes on after it.
The steps the agent took replace the broken one in a new version of the workflow, so the next replay needs no model.
When healing fails (no model configured, or the agent says it cannot), the replay fails with the step and why.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import time
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings
from playwright.async_api import Error as PlaywrightError

from agents.events import ConfirmationRequest
from agents.llm import LLMClient, LLMError, NoModelConfiguredError
from agents.loop import run_agent_turn
from agents.secrets import PlaceholderSecrets, Secrets, fill
from agents.step import Aim, Asking, Check, StepCall, StepContext, run_step
from agents.tools.base import Tool, ToolOutput
from agents.tools.browser import browser_tools
from agents.tools.content import content_tools
from browser_pool.replay import find_target
from browser_pool.session import Session
from browser_pool.types import JsonObject
from webapp.conversations.browser_selectors import conversation_uploads
from webapp.conversations.models import Conversation
from webapp.core.exceptions import ApplicationError
from webapp.llm.selectors import models_for_conversation
from webapp.runs.models import Run, Step
from webapp.workflows.models import WorkflowVersion
from webapp.workflows.notify import confirmation_wanted
from webapp.workflows.services import masked, run_output_set, secret_names, secrets_resolve, workflow_version_add
from webapp.workflows.steps import (
    AIMS,
    EXTRACT,
    WorkflowStep,
    as_steps,
    checks_of,
    healed_steps,
    is_secret_field,
    value_held,
)
from workers.handoff import ask_person_tools
from workers.policy import agent_config
from workers.sink import WorkerSink
from workers.steps import conversation_asking, worker_step_context
from workers.turns import finish
from workers.vault import vault_secrets

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


def _aim(session: Session, recorded: WorkflowStep) -> Aim:
    """Before the step: its page and element (`_find`); the element found replaces however the step was aimed."""

    async def aim(arguments: JsonObject) -> tuple[JsonObject, str]:
        index, problem = await _find(session, recorded)
        if problem or index is None:
            return arguments, problem
        unaimed = {key: value for key, value in arguments.items() if key not in AIMS}
        return {**unaimed, "index": index}, ""

    return aim


def _effect(recorded: WorkflowStep) -> Check:
    """After the step: why it did not have the effect it had when recorded, or ""."""

    def missing(arguments: JsonObject, output: ToolOutput) -> str:
        result = output.action
        if result is None:
            return ""
        checks = checks_of(recorded)
        if checks.get("navigated") and not result.navigated:
            return "it did not lead to another page, as it did when recorded"
        if checks.get("value"):
            # A secret's field reports its value as dots, as a password field does.
            password = is_secret_field(recorded["target"] or {}) or bool(arguments.get("conceal"))
            if not value_held(str(recorded["action"]), arguments, result.data, password):
                return "the field does not hold the value afterwards, as it did when recorded"
        if checks.get("gone") and not (result.navigated or (result.target or {}).get("gone_after")):
            return "the element is still there afterwards; when recorded, it went away"
        return ""

    return missing


def _last_index(run_id: int) -> int:
    return Step.objects.filter(run_id=run_id).order_by("-index").values_list("index", flat=True).first() or -1


def _steps_after(run_id: int, index: int) -> list[Step]:
    return list(Step.objects.filter(run_id=run_id, index__gt=index).order_by("index"))


async def _secrets(run: Run, parameters: dict[str, str]) -> Secrets:
    """The secret parameters' values and the starter's vault (a step recorded with `{{github.password}}`)."""
    return await vault_secrets(run.pk, others=parameters) or PlaceholderSecrets(parameters)


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
                                      uploads=uploads, page_tools=page_tools, extra_tools=ask_person_tools(sink),
                                      secrets=sink.masking(await _secrets(run, secrets), session))  # fmt: skip
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


def _asking(run: Run) -> Asking:
    """A scheduled replay: nobody watches it, so its schedule says whether a step that needs a yes waits for the
    owner (who is told by e-mail and the webhook) or is refused at once. Any other replay asks in the dashboard."""
    if not run.metadata.get("schedule"):
        return conversation_asking()
    if run.metadata.get("confirmations") == "refuse":
        return Asking(refuse="this scheduled replay does not wait for one (its schedule says refuse)", notices=False)

    async def tell(request: ConfirmationRequest) -> None:
        await database_sync_to_async(confirmation_wanted)(
            run_id=run.pk, action=request.action, reason=request.reason, url=request.url,
            timeout_s=request.timeout_s or wait_s,
        )  # fmt: skip

    wait_s = settings.HIVE_SCHEDULED_CONFIRM_TIMEOUT_S
    return Asking(wait_s=wait_s, limit_s=wait_s + 30, tell=tell, notices=False)


async def _extract_tool(run: Run) -> Tool:
    """The agent's extract_data, with the conversation's model: the one kind of step that asks the model, since
    reading meaning off a page is what it is for."""
    conversation = await database_sync_to_async(Conversation.objects.get)(pk=run.conversation_id)
    model, _ = await database_sync_to_async(models_for_conversation)(profile_id=conversation.model_profile_id)
    tools = content_tools(
        page_chars=settings.HIVE_CONTENT_LIMIT,
        model_client_factory=lambda: LLMClient(model),
        budget_tokens=settings.HIVE_AGENT_CHUNK_TOKENS,
    )
    return next(t for t in tools if t.name == EXTRACT)


def _extraction(recorded: WorkflowStep, shown: dict[str, str]) -> StepCall:
    """An extraction step: the step's instruction, its result made to fit the kept schema."""
    arguments = dict(recorded["arguments"])
    kept = recorded.get("output")
    if kept and kept["schema"] and arguments.get("format", "json") == "json":
        arguments["schema"] = kept["schema"]
    return StepCall(EXTRACT, arguments, shown=fill(dict(recorded["arguments"]), shown))


def _replayed(session: Session, recorded: WorkflowStep, public: dict[str, str], shown: dict[str, str]) -> StepCall:
    """A browser step with its parameters filled in; secret ones stay placeholders until the moment of acting."""
    arguments = dict(recorded.get("arguments") or {})
    return StepCall(str(recorded["action"]), fill(arguments, public), shown=fill(arguments, shown),
                    aim=_aim(session, recorded), check=_effect(recorded))  # fmt: skip


async def replay_workflow(run: Run, session: Session, sink: WorkerSink) -> None:
    """For each step: find its element, run it (agents.step), check its effect; heal it when it no longer fits."""
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
    public = {name: value for name, value in values.items() if name not in secrets}
    context = await worker_step_context(run, session, sink, tools=browser_tools(), judged=True, asking=_asking(run),
                                        secrets=await _secrets(run, secrets))  # fmt: skip
    total = len(version.steps)
    kept: list[WorkflowStep] = []
    healed: list[int] = []
    tokens = [0, 0]

    async def fail(error: str) -> None:
        await finish(run.pk, Run.Status.FAILED, error, prompt=tokens[0], completion=tokens[1])

    for number, recorded in enumerate(as_steps(version.steps), 1):
        where = f"Step {number} of {total} ({recorded.get('intent') or recorded['action']})"
        if recorded["action"] == EXTRACT:
            error = await _extract(run, context, recorded, shown, number, tokens)
            if error:
                await fail(f"{where}: the extraction failed: {error}")
                return
            kept.append(recorded)
            continue
        outcome = await run_step(_replayed(session, recorded, public, shown), context)
        if outcome.ok:
            kept.append(recorded)
            continue
        if outcome.refused:  # a "no" from the user (or the policy) is an answer, not a page change: nothing to heal
            await fail(f"{where}: {outcome.error}")
            return
        await sink.notify(f"Step {number} ({recorded.get('intent') or recorded['action']}) no longer fits the page; "
                          "the agent heals it.")  # fmt: skip
        healing = await heal(run, session, sink, recorded, shown, number=number, total=total, reason=outcome.error,
                             secrets=secrets)  # fmt: skip
        tokens[0] += healing.prompt_tokens
        tokens[1] += healing.completion_tokens
        if healing.error:
            await fail(f"{where}: {outcome.error}; {healing.error}")
            return
        kept.extend(healing.steps)
        healed.append(number)
    if healed:
        note = f"Healed step{'s' if len(healed) > 1 else ''} {', '.join(map(str, healed))} in run {run.pk}"
        await database_sync_to_async(workflow_version_add)(version=version, steps=kept, note=note)
    await finish(run.pk, Run.Status.SUCCEEDED, prompt=tokens[0], completion=tokens[1])


async def _extract(
    run: Run, context: StepContext, recorded: WorkflowStep, shown: dict[str, str], number: int, tokens: list[int]
) -> str:
    """An extraction step through the executor; its result kept as the run's output. "" when it worked, else why."""
    if EXTRACT not in context.registry:
        try:
            context.registry.add(await _extract_tool(run))
        except NoModelConfiguredError as exc:
            return str(exc)
    outcome = await run_step(_extraction(recorded, shown), context)
    used = outcome.output.data.get("usage") or {}
    tokens[0] += int(used.get("prompt_tokens", 0))
    tokens[1] += int(used.get("completion_tokens", 0))
    if not outcome.ok:
        return outcome.error
    output = recorded.get("output")
    name = output["name"] if output else f"step_{number}"
    await database_sync_to_async(run_output_set)(run_id=run.pk, name=name, value=outcome.output.data.get("value"))
    return ""
