"""The shapes workflows keep in JSON fields and send out, with no import of the app's models, so the models can name
them without a circle."""

from __future__ import annotations

from typing import TypedDict

from webapp.conversations.types import ConversationFilePayload
from webapp.core.types import JsonObject


class Parameter(TypedDict):
    name: str
    type: str  # "string" or "secret"
    default: str
    label: str


class WebhookAttempt(TypedDict):
    """One try at delivering, as the delivery's log keeps it."""

    at: str  # ISO 8601
    status_code: int | None  # None: no answer
    error: str  # "" when the receiver took it
    ms: int


class WebhookWorkflow(TypedDict):
    id: int
    name: str
    version: int | None


class WebhookRun(TypedDict):
    id: int
    conversation: int
    status: str
    error: str
    started_at: str | None  # ISO 8601
    finished_at: str | None


class WebhookConfirmation(TypedDict):
    """A scheduled replay waits for its owner's yes (workflows.notify)."""

    action: str
    reason: str
    url: str
    dashboard: str  # where to answer
    timeout_s: float


class WebhookPersonWanted(TypedDict):
    """The agent asks for a person to take over the browser (workflows.notify)."""

    reason: str
    url: str
    dashboard: str  # where to take over
    timeout_s: float


class WebhookExtra(TypedDict, total=False):
    confirmation: WebhookConfirmation
    person_wanted: WebhookPersonWanted


class WebhookPayload(WebhookExtra):
    """What a workflow's webhook receives (docs: the body is signed; X-Hive-Event repeats `event`)."""

    event: str
    delivery: int
    workflow: WebhookWorkflow
    run: WebhookRun
    parameters: dict[str, str]  # a secret parameter's value (the name of a credential) shown as the mask
    outputs: JsonObject  # what the extraction steps returned, by output name
    downloads: list[ConversationFilePayload]  # the files its steps downloaded, with addresses from outside
