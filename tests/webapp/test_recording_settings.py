"""The recording's picture size comes from the environment (HIVE_RECORDING_SIZE=WIDTHxHEIGHT); a malformed one stops
the start with the variable's name instead of failing recordings later."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from webapp.settings.browser import picture_size


def test_a_size_is_read_as_width_by_height(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIVE_RECORDING_SIZE", "640X400")
    assert picture_size("HIVE_RECORDING_SIZE", "800x500") == (640, 400)
    monkeypatch.delenv("HIVE_RECORDING_SIZE")
    assert picture_size("HIVE_RECORDING_SIZE", "800x500") == (800, 500)


@pytest.mark.parametrize("value", ["big", "640", "640x400x2", "x400", "8x8", "-640x400"])
def test_a_malformed_size_is_refused_with_the_variables_name(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("HIVE_RECORDING_SIZE", value)
    with pytest.raises(ImproperlyConfigured, match=r"HIVE_RECORDING_SIZE="):
        picture_size("HIVE_RECORDING_SIZE", "800x500")
