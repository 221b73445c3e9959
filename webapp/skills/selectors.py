"""Reads for the SKILL library: what users see, and what the worker injects into a page."""

from __future__ import annotations

import logging

from django.db.models import Exists, OuterRef, QuerySet, prefetch_related_objects
from django.shortcuts import get_object_or_404

from webapp.conversations.models import Conversation
from webapp.skills.models import ConversationSkillSetting, Skill
from webapp.skills.patterns import url_matches
from webapp.skills.types import SkillInjection, tool_spec

logger = logging.getLogger(__name__)


def skill_list() -> QuerySet[Skill]:
    """The SKILLs users can use (enabled by an admin), highest priority first, with their tools."""
    return Skill.objects.filter(enabled=True).prefetch_related("tools")


def _switched_off(conversation_id: int) -> QuerySet[ConversationSkillSetting]:
    return ConversationSkillSetting.objects.filter(conversation_id=conversation_id, skill=OuterRef("pk"), enabled=False)


def conversation_skill_list(*, conversation: Conversation) -> QuerySet[Skill]:
    """``skill_list`` with ``enabled_here``: False where the conversation switched the SKILL off."""
    return skill_list().annotate(enabled_here=~Exists(_switched_off(conversation.pk)))


def conversation_skill_get(*, conversation: Conversation, skill_id: int) -> Skill:
    return get_object_or_404(conversation_skill_list(conversation=conversation), pk=skill_id)


def skills_for_url(*, url: str, conversation_id: int | None) -> list[SkillInjection]:
    """The SKILLs to inject into a page at ``url``, highest priority first.

    Enabled SKILLs whose match patterns match the URL, minus those the conversation switched off (all of them
    when ``conversation_id`` is None).
    """
    candidates = Skill.objects.filter(enabled=True)
    if conversation_id is not None:
        candidates = candidates.exclude(Exists(_switched_off(conversation_id)))
    matched = [skill for skill in candidates if _matches(skill, url)]
    prefetch_related_objects(matched, "tools")
    return [
        {
            "id": skill.pk,
            "name": skill.name,
            "version": skill.version,
            "description": skill.description,
            "priority": skill.priority,
            "health_check": skill.health_check,
            "tools": [tool_spec(tool) for tool in skill.tools.all()],
        }
        for skill in matched
    ]


def _matches(skill: Skill, url: str) -> bool:
    try:
        return url_matches(skill.match_patterns, url)
    except ValueError:  # only reachable by writing the table around the validators; the other SKILLs still work
        logger.warning("SKILL %s has an invalid match pattern; it is not injected", skill.name)
        return False
