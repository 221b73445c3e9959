"""Workflows: the actions of a run that worked, saved to be replayed without a model, with other inputs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

from webapp.sharing.models import Share

if TYPE_CHECKING:
    from webapp.workflows.types import Parameter, WebhookAttempt


class Workflow(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workflows")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # Told when a replay ends: a POST signed with HMAC-SHA256 under the secret (kept encrypted, shown once).
    webhook_url = models.URLField(max_length=2000, blank=True)
    webhook_secret = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.name


class WorkflowVersion(models.Model):
    """One saved list of steps. Each step: the action, its arguments (typed values as `{{parameter}}`), the
    recorded target of the element it aimed at (browser_pool.replay), the address before it, and its intent."""

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    steps = models.JSONField(default=list)  # read through steps.as_steps
    # [{"name": "email", "type": "string", "default": "ada@example.com", "label": "Email"}]
    parameters: models.JSONField[list[Parameter], list[Parameter]] = models.JSONField(default=list)
    source_run = models.ForeignKey("runs.Run", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    note = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["workflow", "-number"]
        constraints = [models.UniqueConstraint(fields=["workflow", "number"], name="unique_workflow_version")]

    def __str__(self) -> str:
        return f"{self.workflow} v{self.number}"


class WebhookDelivery(models.Model):
    """One run's webhook: what was sent, every attempt's outcome, and where it stands."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DELIVERED = "delivered"
        FAILED = "failed"

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="deliveries")
    run = models.ForeignKey("runs.Run", on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=2000)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    log: models.JSONField[list[WebhookAttempt], list[WebhookAttempt]] = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.workflow} run {self.run_id}: {self.status}"


class WorkflowSchedule(models.Model):
    """A workflow replayed on a cron schedule in a time zone, with its parameters; beat fires it (its PeriodicTask)."""

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="schedules")
    cron = models.CharField(max_length=200)  # minute hour day-of-month month day-of-week
    timezone = models.CharField(max_length=64, default="UTC")
    parameters: models.JSONField[dict[str, str], dict[str, str]] = models.JSONField(default=dict, blank=True)
    # A step that needs the user's yes: "wait" for it (the owner is told), or "refuse" (the replay stops there).
    confirmations = models.CharField(
        max_length=6, choices=[("wait", "wait and notify the owner"), ("refuse", "refuse")], default="wait"
    )
    # The browser profile each replay starts from (its owner's, or shared with them as controller), and whether what
    # changes is saved back into it. A deleted profile leaves the schedule replaying without one.
    profile = models.ForeignKey(
        "profiles.BrowserProfile", on_delete=models.SET_NULL, null=True, blank=True, related_name="schedules"
    )
    profile_writes = models.BooleanField(default=True)
    periodic_task = models.OneToOneField(
        "django_celery_beat.PeriodicTask", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_run = models.ForeignKey("runs.Run", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["workflow", "id"]

    def __str__(self) -> str:
        return f"{self.workflow}: {self.cron} ({self.timezone})"


class Credential(models.Model):
    """A secret a workflow types (a password, a token): stored encrypted, never shown after saving, never sent to a
    model; a workflow's secret parameter names one, and the replay fills it in on the worker."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="credentials")
    name = models.CharField(max_length=100)
    value = models.TextField()  # encrypted (webapp.core.crypto)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_credential_name")]

    def __str__(self) -> str:
        return self.name


class WorkflowShare(models.Model):
    """A teammate's access to a workflow, with the conversation roles: a viewer sees it (steps, versions, history,
    export), a controller also runs it (with their own credentials); only the owner changes, schedules or shares it."""

    Role = Share.Role  # the conversation roles, one definition

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="shares")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workflow_shares")
    role = models.CharField(max_length=10, choices=Share.Role.choices, default=Share.Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workflow", "user"], name="unique_workflow_share")]

    def __str__(self) -> str:
        return f"{self.workflow} → {self.user} ({self.role})"
