"""Reads for model profiles, and the model a conversation's turn uses."""

from __future__ import annotations

import asyncio
import dataclasses
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from agents.llm.config import ModelConfig, NoModelConfiguredError
from agents.llm.egress import url_problem
from browser_pool.net.policy import EgressPolicy
from webapp.core.crypto import decrypt
from webapp.llm.models import ModelProfile


def model_profile_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[ModelProfile]:
    return ModelProfile.objects.filter(owner_id=user.pk)


def model_profile_get(*, user: AbstractBaseUser | AnonymousUser, profile_id: int) -> ModelProfile:
    return get_object_or_404(model_profile_list(user=user), pk=profile_id)


def model_profile_default(*, user: AbstractBaseUser | AnonymousUser) -> ModelProfile | None:
    """The model a conversation the user starts gets, as the dashboard picks it for a new one: the server's default
    (None) when the operator set one, else the user's first profile, so that it has a model to go to."""
    if server_default_summary() is not None:
        return None
    return model_profile_list(user=user).first()


def llm_egress_policy() -> EgressPolicy:
    """What the server may connect to for a model: public addresses, the hosts the operator lists, and the
    server default's own host (the operator configured it)."""
    own = [settings.HIVE_LLM_BASE_URL] if settings.HIVE_LLM_BASE_URL else []
    return EgressPolicy(allow=(*settings.HIVE_LLM_ALLOWED_PRIVATE_HOSTS, *own))


def base_url_problem(url: str) -> str | None:
    """Why a model base URL may not be saved: not http(s), or an internal address the operator did not allow. A
    name that does not resolve now is accepted here; every connection is checked again when it is made."""
    problem = url_problem(url)
    if problem is not None:
        return problem
    parts = urlsplit(url.strip())
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        return "the URL's port is not a number from 1 to 65535"
    verdict = asyncio.run(llm_egress_policy().check(parts.hostname or "", port))
    if verdict.allowed or "does not resolve" in verdict.reason:
        return None
    return (
        f"{verdict.reason}; the server only connects to public addresses and the hosts the operator allows "
        "(HIVE_LLM_ALLOWED_PRIVATE_HOSTS)"
    )


def model_config_from_profile(profile: ModelProfile) -> ModelConfig:
    return ModelConfig(
        base_url=profile.base_url,
        model=profile.model,
        api_key=decrypt(profile.api_key_encrypted),
        provider=profile.provider,
        timeout_s=settings.HIVE_LLM_TIMEOUT_S,
        supports_tools=profile.supports_tools,
        supports_vision=profile.supports_vision,
        parallel_tool_calls=profile.parallel_tool_calls,
        egress=llm_egress_policy(),
    )


def server_default_model() -> ModelConfig:
    """The server's model from the environment; raises NoModelConfiguredError when there is none."""
    config = ModelConfig.from_values(
        base_url=settings.HIVE_LLM_BASE_URL,
        model=settings.HIVE_LLM_MODEL,
        api_key=settings.HIVE_LLM_API_KEY,
        timeout_s=settings.HIVE_LLM_TIMEOUT_S,
        provider=settings.HIVE_LLM_PROVIDER,
        supports_tools=settings.HIVE_LLM_TOOLS,
        supports_vision=settings.HIVE_LLM_VISION,
    )
    return dataclasses.replace(config, egress=llm_egress_policy())


def server_default_summary() -> dict[str, str] | None:
    if not (settings.HIVE_LLM_BASE_URL and settings.HIVE_LLM_MODEL):
        return None
    return {"base_url": settings.HIVE_LLM_BASE_URL, "model": settings.HIVE_LLM_MODEL}


def models_for_conversation(*, profile_id: int | None) -> tuple[ModelConfig, ModelConfig | None]:
    """The conversation's model and its fallback. Without a profile, the server default (or no model)."""
    if profile_id is None:
        return server_default_model(), None
    profile = ModelProfile.objects.select_related("fallback").filter(pk=profile_id).first()
    if profile is None:
        raise NoModelConfiguredError
    fallback = model_config_from_profile(profile.fallback) if profile.fallback else None
    return model_config_from_profile(profile), fallback
