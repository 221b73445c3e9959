"""Root pytest configuration: the network guard is installed before any test code runs."""

from tests.support import network_guard


def pytest_configure(config: object) -> None:
    network_guard.install()
