"""Workflows in Django admin: each with its versions, schedules, shares and webhook delivery log. Nothing secret is
shown: the webhook's signing secret and credentials' values are never listed."""

from django.contrib import admin
from django.db import models

from webapp.workflows.models import (
    Credential,
    WebhookDelivery,
    Workflow,
    WorkflowSchedule,
    WorkflowShare,
    WorkflowVersion,
)
from webapp.workflows.schedules import STOPPED


class VersionInline(admin.TabularInline):
    model = WorkflowVersion
    extra = 0
    fields = ("number", "note", "source_run", "created_at")
    readonly_fields = ("number", "note", "source_run", "created_at")


class ScheduleInline(admin.TabularInline):
    model = WorkflowSchedule
    extra = 0
    fields = ("cron", "timezone", "confirmations", "state", "last_run", "created_at")
    readonly_fields = ("cron", "timezone", "confirmations", "state", "last_run", "created_at")

    @admin.display(description="state")
    def state(self, schedule: WorkflowSchedule) -> str:
        """Whether beat fires it, and why not: its owner's account deactivated (schedules.STOPPED), or its entry
        disabled or gone."""
        entry = schedule.periodic_task
        if not schedule.workflow.owner.is_active:
            return STOPPED
        if entry is None:
            return "Stopped: it has no beat entry."
        return "Fires on time." if entry.enabled else f"Stopped: its beat entry is disabled. {entry.description}"


class ShareInline(admin.TabularInline):
    model = WorkflowShare
    extra = 0
    fields = ("user", "role", "created_at")
    readonly_fields = ("created_at",)


@admin.register(Workflow)
class WorkflowAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "updated_at")
    search_fields = ("name", "owner__username")
    exclude = ("webhook_secret",)
    inlines = [VersionInline, ScheduleInline, ShareInline]
    # An address typed without a scheme is https (Django 6's default, said now).
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ("workflow", "run", "status", "attempts", "updated_at")
    list_filter = ("status",)
    search_fields = ("workflow__name", "url")
    readonly_fields = ("workflow", "run", "url", "payload", "status", "attempts", "log", "created_at", "updated_at")


@admin.register(Credential)
class CredentialAdmin(admin.ModelAdmin):
    """Names only: the value stays encrypted and is never shown."""

    list_display = ("name", "owner", "updated_at")
    search_fields = ("name", "owner__username")
    fields = ("owner", "name", "created_at", "updated_at")
    readonly_fields = ("owner", "name", "created_at", "updated_at")

    def has_add_permission(self, request: object) -> bool:
        return False
