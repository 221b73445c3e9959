from __future__ import annotations

from django.db import models

from webapp.skills.validation import (
    validate_annotations,
    validate_function_body,
    validate_input_schema,
    validate_match_patterns,
    validate_not_blank,
    validate_semver,
    validate_skill_name,
    validate_tool_name,
)


def _empty_object_schema() -> dict[str, object]:
    return {"type": "object", "properties": {}}


class Skill(models.Model):
    """Tools for pages that have none: injected into every page whose URL matches, once its health check passes."""

    name = models.CharField(max_length=100, unique=True, validators=[validate_skill_name])
    version = models.CharField(max_length=64, validators=[validate_semver], help_text="Semantic version, e.g. 1.2.0.")
    description = models.TextField(blank=True)
    match_patterns = models.JSONField(
        default=list,
        validators=[validate_match_patterns],
        error_messages={"blank": 'Give at least one URL match pattern, e.g. ["https://*.example.com/*"].'},
        help_text='A JSON list of Chrome match patterns, e.g. ["https://*.example.com/*", "*://*/demo/shop/*"].',
    )
    priority = models.IntegerField(default=0, help_text="Higher goes first when several SKILLs match a page.")
    enabled = models.BooleanField(default=True)
    health_check = models.TextField(
        blank=True,
        validators=[validate_function_body],
        help_text="Body of an async function run in the page before the tools are registered. It must return a "
        "truthy value; throw an Error to say what is wrong. Empty: no check.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-priority", "name"]
        verbose_name = "SKILL"
        verbose_name_plural = "SKILLs"

    def __str__(self) -> str:
        return f"{self.name} {self.version}"


class SkillTool(models.Model):
    """One WebMCP tool a SKILL registers; its handler runs in the page."""

    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="tools")
    name = models.CharField(max_length=128, validators=[validate_tool_name])
    title = models.CharField(max_length=200, blank=True)
    description = models.TextField(validators=[validate_not_blank])
    input_schema = models.JSONField(
        default=_empty_object_schema,
        validators=[validate_input_schema],
        error_messages={"blank": 'Give an object schema, e.g. {"type": "object", "properties": {}}.'},
        help_text='A JSON Schema (draft 2020-12) for an object, e.g. {"type": "object", "properties": {}}.',
    )
    annotations = models.JSONField(
        default=dict,
        blank=True,
        validators=[validate_annotations],
        help_text="Optional booleans: readOnlyHint, untrustedContentHint, consequentialHint.",
    )
    handler = models.TextField(
        validators=[validate_not_blank, validate_function_body],
        help_text="Body of async (input, {signal}) => { ... } run in the page; its return value is the result.",
    )

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["skill", "name"], name="unique_tool_name_per_skill")]
        verbose_name = "SKILL tool"

    def __str__(self) -> str:
        return self.name


class ConversationSkillSetting(models.Model):
    """A conversation's own switch for a SKILL. No row means the SKILL is on there."""

    conversation = models.ForeignKey(
        "conversations.Conversation", on_delete=models.CASCADE, related_name="skill_settings"
    )
    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="conversation_settings")
    enabled = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["conversation", "skill"], name="unique_skill_setting_per_conversation")
        ]

    def __str__(self) -> str:
        return f"{self.skill} {'on' if self.enabled else 'off'} in conversation {self.conversation_id}"
