"""The folders' import rules (SPEC.md §1): the libraries stay free of Django and of each other's callers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

RULES = {
    "agents": {"django", "rest_framework", "channels", "celery", "webapp", "workers"},
    "browser_pool": {"django", "rest_framework", "channels", "celery", "webapp", "workers", "agents"},
    "webapp": {"workers"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(RULES))
def test_package_does_not_import_what_it_must_not(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imports(path) & RULES[package])
        for path in (ROOT / package).rglob("*.py")
        if _imports(path) & RULES[package]
    }
    assert offenders == {}, f"{package} imports what SPEC.md §1 forbids: {offenders}"


def test_nothing_uses_playwrights_sync_api() -> None:
    users = [
        str(path.relative_to(ROOT))
        for package in ("agents", "browser_pool", "workers", "webapp", "tests", "bench")
        for path in (ROOT / package).rglob("*.py")
        if path != Path(__file__).resolve() and "playwright.sync_api" in path.read_text(encoding="utf-8")
    ]
    assert users == []
