"""The part size of a long field value is the operator's setting: the worker's details answers use it, and the agent
keeps a whole part of one result for the model however large the parts are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from browser_pool.observe import DETAILS_VALUE_CHARS, details_value_chars, set_details_value_chars
from tests.factories import ConversationFactory
from workers.browser import pool_config
from workers.policy import agent_config


@pytest.fixture(autouse=True)
def _default_part_size_afterwards() -> Iterator[None]:
    yield
    set_details_value_chars(DETAILS_VALUE_CHARS)


@override_settings(HIVE_ELEMENT_VALUE_CHARS=20_000)
@pytest.mark.django_db
def test_a_larger_part_size_reaches_the_worker_and_fits_what_the_agent_keeps() -> None:
    pool_config()
    config = agent_config(ConversationFactory(), model=None, fallback=None)

    assert details_value_chars() == 20_000
    assert config.observation_max_chars >= 20_000 + 1_000


@pytest.mark.django_db
def test_by_default_parts_are_ten_thousand_characters_within_what_the_agent_keeps() -> None:
    set_details_value_chars(3)
    pool_config()
    config = agent_config(ConversationFactory(), model=None, fallback=None)

    assert details_value_chars() == DETAILS_VALUE_CHARS == 10_000
    assert config.observation_max_chars >= DETAILS_VALUE_CHARS + 1_000
