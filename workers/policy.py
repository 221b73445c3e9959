"""The safety policy's configuration for a conversation: the agent's turns and an MCP client's calls use the same."""

from __future__ import annotations

from django.conf import settings

from agents.safety import SafetyConfig
from webapp.conversations.models import Conversation


def safety_config(conversation: Conversation) -> SafetyConfig:
    return SafetyConfig(
        confirm_mode="confirm" if conversation.confirm_mode == Conversation.ConfirmMode.CONFIRM else "auto",
        allowed_domains=tuple(settings.HIVE_ALLOWED_DOMAINS),
        denied_domains=tuple(settings.HIVE_DENIED_DOMAINS),
        block_private_networks=True,
        always_allowed_origins=tuple(settings.HIVE_OWN_ORIGINS),
        allowed_addresses=tuple(settings.HIVE_EGRESS_ALLOW),
    )
