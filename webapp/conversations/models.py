from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

if TYPE_CHECKING:
    from webapp.conversations.types import PageTools, SavedTab


class Conversation(models.Model):
    """A chat with the agent. It belongs to one user and owns one browser session."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations")

    class ConfirmMode(models.TextChoices):
        AUTO = "auto", "Run page and SKILL tools without asking"
        CONFIRM = "confirm", "Ask before every page or SKILL tool that changes something"

    title = models.CharField(max_length=200, blank=True)
    # None: the server's default model (HIVE_LLM_*).
    model_profile = models.ForeignKey(
        "llm.ModelProfile", on_delete=models.SET_NULL, null=True, blank=True, related_name="conversations"
    )
    show_reasoning = models.BooleanField(default=False)
    confirm_mode = models.CharField(max_length=10, choices=ConfirmMode.choices, default=ConfirmMode.AUTO)
    # Keep every run as a Playwright trace, not only workflow replays and the runs that fail.
    trace_runs = models.BooleanField(default=False)

    class Origin(models.TextChoices):
        DASHBOARD = "dashboard", "Started in the dashboard or the REST API"
        MCP = "mcp", "Started by an MCP client"

    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.DASHBOARD)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.title or f"Conversation {self.pk}"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"
        TOOL = "tool"
        SYSTEM = "system"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField()
    # Who wrote a user message: the owner, or a teammate with control of a shared conversation.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    run = models.ForeignKey("runs.Run", on_delete=models.SET_NULL, null=True, blank=True, related_name="messages")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:40]}"


class BrowserSession(models.Model):
    """The conversation's browser as last saved: cookies, storage and tabs, to restore it on any worker."""

    conversation = models.OneToOneField(Conversation, on_delete=models.CASCADE, related_name="browser_session")
    state = models.JSONField(default=dict, blank=True)
    tabs: models.JSONField[list[SavedTab], list[SavedTab]] = models.JSONField(default=list, blank=True)
    # The active tab's WebMCP tools and SKILL health as last seen (the Tool Inspector's view).
    tools: models.JSONField[PageTools, PageTools] = models.JSONField(default=dict, blank=True)
    saved_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Browser session of conversation {self.conversation_id}"


def _upload_path(instance: ConversationFile, filename: str) -> str:
    # A folder of its own per file: the page's file input then gets the file's own name, even when a file of the
    # same name was uploaded before (storage would otherwise rename it, note_xbHIIia.txt).
    folder = "downloads" if instance.origin == ConversationFile.Origin.DOWNLOAD else "uploads"
    return f"{folder}/{instance.conversation_id}/{uuid.uuid4().hex}/{filename}"


class ConversationFile(models.Model):
    """A file of the conversation: one the user uploaded (the only files the agent may put into a page), or one a
    page of its browser downloaded (with where it came from, and the run and step that caused it)."""

    class Origin(models.TextChoices):
        UPLOAD = "upload", "Uploaded by a person"
        DOWNLOAD = "download", "Downloaded by the conversation's browser"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="files")
    file = models.FileField(upload_to=_upload_path, max_length=300)
    name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField()
    # Sniffed from the bytes (webapp.conversations.files), never taken from the page or the client.
    content_type = models.CharField(max_length=200, blank=True)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.UPLOAD)
    # Where a download came from (a data: URL only as far as its media type).
    source_url = models.CharField(max_length=2000, blank=True)
    run = models.ForeignKey("runs.Run", on_delete=models.SET_NULL, null=True, blank=True, related_name="files")
    step = models.ForeignKey("runs.Step", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["origin", "created_at"])]

    def __str__(self) -> str:
        return self.name


class TabContent(models.Model):
    """A tab added to the conversation's context: its main text as read, sent to the model when shared."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="tab_contents")
    tab_id = models.CharField(max_length=32)
    title = models.CharField(max_length=500, blank=True)
    url = models.URLField(max_length=2000, blank=True)
    content = models.TextField(blank=True)
    method = models.CharField(max_length=20, blank=True)
    truncated = models.BooleanField(default=False)
    length = models.PositiveIntegerField(default=0)
    # Why there is no text (a restricted or empty page), in words the user and the model understand.
    reason = models.TextField(blank=True)
    extracted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["conversation", "tab_id"]
        constraints = [models.UniqueConstraint(fields=["conversation", "tab_id"], name="unique_tab_content")]

    def __str__(self) -> str:
        return f"{self.tab_id}: {self.title or self.url}"
