"""Writes for the SKILL library and the per-conversation switches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from webapp.conversations.models import Conversation
from webapp.skills.files import SkillFileError, SkillSpec, parse_document
from webapp.skills.models import ConversationSkillSetting, Skill, SkillTool
from webapp.skills.validation import semver_key


@dataclass(frozen=True, slots=True)
class SkillImportOutcome:
    name: str
    version: str
    action: Literal["created", "replaced", "skipped"]
    previous_version: str | None = None

    def describe(self) -> str:
        if self.action == "created":
            return f"Created {self.name} {self.version}."
        if self.action == "replaced":
            return f"Replaced {self.name} {self.previous_version} with {self.version}."
        return (
            f"Skipped {self.name} {self.version}: {self.previous_version} is installed "
            "(import with replace to replace it)."
        )


@transaction.atomic
def skill_import(*, document: Any, replace: bool = False) -> list[SkillImportOutcome]:
    """Import a parsed ``hive-skill/1`` file: all of it or, on any error (SkillFileError), none of it.

    A SKILL whose name is new is created. One whose name is installed is skipped unless ``replace`` is given;
    then it is replaced when the file's version is the same or higher (a replace never downgrades: that is an
    error). Replacing keeps the SKILL's id, so the conversations' switches stay, and swaps all its tools.
    """
    specs = parse_document(document)
    names = [spec.skill.name for spec in specs]
    installed = {skill.name: skill for skill in Skill.objects.select_for_update().filter(name__in=names)}
    downgrades = [
        f"{spec.skill.name}: the file has {spec.skill.version} but {installed[spec.skill.name].version} is installed; "
        "a replace never downgrades (delete the installed SKILL first to go back)."
        for spec in specs
        if replace
        and spec.skill.name in installed
        and semver_key(spec.skill.version) < semver_key(installed[spec.skill.name].version)
    ]
    if downgrades:
        raise SkillFileError(downgrades)
    outcomes = []
    for spec in specs:
        current = installed.get(spec.skill.name)
        if current is None:
            _save(spec, into=None)
            outcomes.append(SkillImportOutcome(spec.skill.name, spec.skill.version, "created"))
        elif replace:
            _save(spec, into=current)
            outcomes.append(SkillImportOutcome(spec.skill.name, spec.skill.version, "replaced", current.version))
        else:
            outcomes.append(SkillImportOutcome(spec.skill.name, spec.skill.version, "skipped", current.version))
    return outcomes


def _save(spec: SkillSpec, *, into: Skill | None) -> Skill:
    skill = spec.skill
    if into is not None:
        skill.pk, skill.created_at = into.pk, into.created_at
        skill._state.adding = False
        into.tools.all().delete()
    skill.save()
    for tool in spec.tools:
        tool.skill = skill
    SkillTool.objects.bulk_create(spec.tools)
    return skill


@transaction.atomic
def skill_enabled_set(*, skills: QuerySet[Skill], enabled: bool) -> int:
    """Turn SKILLs on or off for everyone; returns how many changed."""
    return skills.exclude(enabled=enabled).update(enabled=enabled, updated_at=timezone.now())


@transaction.atomic
def conversation_skill_set(*, conversation: Conversation, skill: Skill, enabled: bool) -> ConversationSkillSetting:
    """Turn a SKILL's tools on or off in one conversation."""
    setting, _ = ConversationSkillSetting.objects.update_or_create(
        conversation=conversation, skill=skill, defaults={"enabled": enabled}
    )
    return setting
