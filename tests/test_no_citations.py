"""Code and docs explain themselves: no comment, docstring, name or page cites a document a newcomer who clones the
repository does not have (design seeds, the product spec, issue or property numbers); each says its reason itself."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCANNED = (
    "agents",
    "browser_pool",
    "workers",
    "webapp",
    "frontend/src",
    "bench",
    "tests",
    "deploy",
    "docs",
    ".ci",
    "Makefile",
    "Dockerfile",
    "docker-compose.yml",
    "supervisord.conf",
    "pyproject.toml",
    "conftest.py",
    "manage.py",
    "README.md",
)
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", ".venv", "dist", "static", ".mypy_cache", ".pytest_cache"})
TEXT_SUFFIXES = frozenset(
    {".py", ".ts", ".js", ".mjs", ".css", ".html", ".md", ".toml", ".yml", ".yaml", ".json", ".conf", ".sh", ".cfg"}
)

# Each pattern is a way of pointing at a document instead of giving the reason.
CITATIONS = {
    "a design seed": re.compile(r"\bseeds?\s*#?\d|\bseed's\b|\bthe seed\b|种子", re.IGNORECASE),
    "the spec": re.compile(r"\bSPEC\b|SPEC\.md|§\s*\d"),
    "an issue or pull request": re.compile(
        r"\b(?:issues?|pr|pull request|ticket)\s*[#-]?\d+|\(#\d+\)|\b(?:in|see|from|per|by|since|fixes|closes)\s#\d+\b",
        re.IGNORECASE,
    ),
    "a property number": re.compile(r"(?i:(?<![a-z])propert(?:y|ies)[\s_]+\d+)|\bP\d{1,2}\b"),
    "a work item or stop": re.compile(r"\bitems?\s+\d+(?:\s*(?:,|and|–|-)\s*\d+)*\)|\bstop\s+\d+\b|\bwave\s+\d+\b"),
}

# Text that matches a pattern without citing anything: (file, the text that matched).
ALLOWED = frozenset(
    {
        ("tests/test_no_citations.py", "*"),  # the patterns themselves
    }
)


def _scanned_files() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files += [
                found
                for found in path.rglob("*")
                if found.is_file()
                and found.suffix in TEXT_SUFFIXES
                and not SKIPPED_DIRS.intersection(found.relative_to(ROOT).parts)
            ]
    return sorted(files)


def citations_in(relative: str, text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, pattern in CITATIONS.items():
            for match in pattern.finditer(line):
                if (relative, "*") in ALLOWED or (relative, match.group(0)) in ALLOWED:
                    continue
                found.append(f"{relative}:{number}: cites {kind} ({match.group(0)!r}): {line.strip()[:100]}")
    return found


def test_the_scan_reads_every_code_folder() -> None:
    folders = {path.relative_to(ROOT).parts[0] for path in _scanned_files()}
    assert {"agents", "browser_pool", "workers", "webapp", "frontend", "bench", "tests", "docs"} <= folders


def test_the_patterns_catch_each_kind_of_citation() -> None:
    cited = [
        "# the safety valves (seed 003)",
        "// Shared tabs (SPEC): which tabs go",
        "# as SPEC.md says",
        "# see §4.2",
        '"""A lean request (issue 12)."""',
        "# fixed in #12",
        "# as noted (#7)",
        "# see PR 40",
        "def test_property_11_observations_precede(): ...",
        "# checks P7",
        "# the work of items 1–3)",
        "# done at stop 5",
        "# 种子 003",
    ]
    for line in cited:
        assert citations_in("agents/example.py", line), line
    plain = [
        "chosen = random.Random(seed)",
        "spec = ACTIONS[name]",
        "p50 and p95 in ms",
        '<div role="tabpanel" id="p1">',
        "border: 1px solid #888; color: light-dark(#101828, #e6e8ec)",
        "<button>Item 1</button>",
        "# stop the run",
        "# a property of the page",
    ]
    for line in plain:
        assert citations_in("agents/example.py", line) == [], line


def test_no_comment_or_doc_cites_a_document_a_newcomer_does_not_have() -> None:
    found = []
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += citations_in(path.relative_to(ROOT).as_posix(), text)
    assert not found, "say the reason itself instead of citing a document:\n" + "\n".join(found)
