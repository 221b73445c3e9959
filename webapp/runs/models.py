from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models

if TYPE_CHECKING:
    from browser_pool.types import RecordedTarget
    from webapp.runs.types import RunMetadata


class Run(models.Model):
    """One piece of work on a conversation's browser, done by a worker: an agent turn (from the user's message to
    the answer), an action by hand, or a page tool called by hand. Ends succeeded, failed with a reason, or aborted."""

    class Kind(models.TextChoices):
        TURN = "turn"
        ACTION = "action"
        TOOL = "tool"
        WORKFLOW = "workflow"  # a saved workflow replayed without a model

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        WAITING = "waiting"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        ABORTED = "aborted"

    ACTIVE = (Status.QUEUED, Status.RUNNING, Status.WAITING)
    # The runs that say how a conversation is going: the agent's turns and workflow replays. One action or tool
    # call by hand (a mistyped address) does not make the conversation "failed".
    WORK_KINDS = (Kind.TURN, Kind.WORKFLOW)

    conversation = models.ForeignKey("conversations.Conversation", on_delete=models.CASCADE, related_name="runs")
    # Who started it: a message's author, whoever acted or called a tool by hand or through MCP, a workflow run's
    # caller, a schedule's owner. A run draws on its starter's own stores (credentials), never on the conversation
    # owner's when that is someone else; a run without one (made before this was kept, or whose starter's account
    # was deleted) draws on nobody's.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # "Run 1", "Run 2" … within its conversation, as the dashboard names runs.
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TURN)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True)
    error = models.TextField(blank=True)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    # What the run's model calls cost in US dollars, summed when it ends: the calls that could be priced, and how
    # many could not (a model the price table does not know, with no price set on its profile).
    cost_usd = models.DecimalField(max_digits=18, decimal_places=10, default=Decimal(0))
    unpriced_calls = models.PositiveIntegerField(default=0)
    # The worker process executing the turn; the reaper fails the run when that worker stops heartbeating.
    worker_id = models.CharField(max_length=200, blank=True)
    # The Celery queue the turn was sent to: a worker's own queue, or the shared one.
    queue = models.CharField(max_length=250, blank=True)
    abort_requested = models.BooleanField(default=False)
    metadata: models.JSONField[RunMetadata, RunMetadata] = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the run was last handed to Celery; a queued run not taken for a while is sent again (the reaper).
    dispatched_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The run as a Playwright trace (workers.traces): kept for a workflow replay, a run that failed, and every run of
    # a conversation that asks for it; secrets masked in it.
    trace = models.FileField(upload_to="traces/%Y/%m/%d/", blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["conversation"],
                condition=models.Q(status__in=["queued", "running", "waiting"]),
                name="one_active_run_per_conversation",
            ),
            models.UniqueConstraint(fields=["conversation", "number"], name="unique_run_number_per_conversation"),
        ]

    def __str__(self) -> str:
        return f"Run {self.number} of conversation {self.conversation_id} ({self.status})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self._state.adding and not self.number:  # every new run, however made, is the conversation's next
            last = Run.objects.filter(conversation_id=self.conversation_id).aggregate(last=models.Max("number"))
            self.number = (last["last"] or 0) + 1
        super().save(*args, **kwargs)

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class Step(models.Model):
    """One thing the agent did in a run: a thought, or an action with its arguments and observation."""

    class Kind(models.TextChoices):
        THOUGHT = "thought"
        ACTION = "action"
        SYSTEM = "system"

    class Status(models.TextChoices):
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="steps")
    index = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ACTION)
    action = models.CharField(max_length=200, blank=True)
    arguments = models.JSONField(default=dict, blank=True)
    observation = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    error = models.TextField(blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    screenshot = models.FileField(upload_to="screenshots/%Y/%m/%d/", blank=True)
    # The element an action aimed at, as browser_pool.replay records it, so a workflow can find it again.
    target: models.JSONField[RecordedTarget, RecordedTarget] = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="unique_step_index_per_run")]

    def __str__(self) -> str:
        return f"Step {self.index} of run {self.run_id}: {self.action or self.kind}"


class ModelCall(models.Model):
    """The exact payload a run sent to the model and what came back: the run's debug log, and what the call used
    and cost (the usage page adds these up)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="model_calls")
    index = models.PositiveIntegerField()
    request = models.JSONField()
    response = models.JSONField(default=dict)
    duration_ms = models.PositiveIntegerField(default=0)
    # The model and provider preset that answered: the conversation's, or its fallback's once that took over.
    model = models.CharField(max_length=200, blank=True)
    provider = models.CharField(max_length=20, blank=True)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    # The part of prompt_tokens served from the provider's prompt cache, when it says so.
    cached_tokens = models.PositiveIntegerField(default=0)
    # US dollars; null: the price is unknown (not the same as free).
    cost_usd = models.DecimalField(max_digits=18, decimal_places=10, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["run", "index"]

    def __str__(self) -> str:
        return f"Model call {self.index} of run {self.run_id}"


class Confirmation(models.Model):
    """A step waiting for the user's yes. No answer before it expires means no."""

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        DENIED = "denied"
        EXPIRED = "expired"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="confirmations")
    step = models.ForeignKey(Step, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(max_length=200)
    arguments = models.JSONField(default=dict, blank=True)
    reason = models.TextField()
    url = models.URLField(max_length=2000, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Confirm {self.action} ({self.status})"


class Recording(models.Model):
    """A run's pictures of its browser between and during steps, to be watched again: JPEG frames one after another
    in one file, `frames` saying where each starts, how long it is, its pixel size and when it was captured."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="recording")
    file = models.FileField(upload_to="recordings/%Y/%m/%d/", blank=True)  # none: no frame was kept
    # [{"at_ms": capture time (ms since the epoch), "offset": …, "size": …, "width": …, "height": …}, …]
    frames = models.JSONField(default=list)
    bytes = models.PositiveBigIntegerField(default=0)
    truncated = models.BooleanField(default=False)  # frames past the size bound were left out
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"Recording of run {self.run_id} ({len(self.frames)} frames)"
