"""Fixtures the firewall tests share: a counting internal service on loopback and a site that attacks it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.listeners import CountingListener, attack_site, counting_listener


@pytest.fixture
def internal() -> Iterator[CountingListener]:
    """A real service on loopback that counts every connection reaching it; the firewall holds while it reads 0."""
    with counting_listener("127.0.0.1") as listener:
        yield listener


@pytest.fixture
def site(internal: CountingListener) -> Iterator[str]:
    """An allowed site whose pages reach for the internal service by every path a page has."""
    with attack_site(internal.url) as base:
        yield base
