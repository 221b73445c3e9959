"""The extractor on real article pages from the benchmark's development split (see bench/extraction.py)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from browser_pool.extract import extract_content

# The shared folder sits beside the repository (<repo>/../shared), or beside the folder of its worktrees.
_REPO = Path(__file__).resolve().parents[3]
_SPLIT = Path("shared", "data", "article-extraction-dev")
DATA = next((up / _SPLIT for up in _REPO.parents if (up / _SPLIT).is_dir()), _REPO.parent / _SPLIT)
# A spread of sites and layouts: news, blogs, a press release, a non-Latin page, one with embedded tweets.
# (Prefixes of the page ids.)
PAGES = ["04a6711c", "1ace8c85", "4648a420", "6a72de37", "70cb2d5b", "c69e539d", "f105de6e", "ff0f958a"]
MIN_MEAN_F1 = 0.95
MIN_PAGE_F1 = 0.8


@pytest.fixture(scope="module", autouse=True)
def _data_present() -> None:
    if not (DATA / "ground-truth.json").is_file():
        pytest.fail(
            f"The article-extraction dev pages are missing at {DATA}. They come with the project's shared/ folder: "
            "check the repository out beside shared/ (as CI does), or link it: ln -s /path/to/shared ../shared"
        )


def shingle_f1(predicted: str, truth: str) -> float:
    """The benchmark's score: F1 over sets of 4-word shingles of lower-cased `\\w+` words."""

    def shingles(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}

    got, want = shingles(predicted), shingles(truth)
    if not got and not want:
        return 1.0
    common = len(got & want)
    if not common:
        return 0.0
    precision, recall = common / len(got), common / len(want)
    return 2 * precision * recall / (precision + recall)


def test_real_pages_score_well() -> None:
    truth = json.loads((DATA / "ground-truth.json").read_text(encoding="utf-8"))
    keys = [next(key for key in sorted(truth) if key.startswith(prefix)) for prefix in PAGES]
    scores = {}
    for key in keys:
        html = gzip.decompress((DATA / "html" / f"{key}.html.gz").read_bytes()).decode("utf-8", "replace")
        result = extract_content(html, truth[key]["url"])
        scores[key[:8]] = shingle_f1(result.text, truth[key]["articleBody"])

    assert min(scores.values()) >= MIN_PAGE_F1, scores
    assert sum(scores.values()) / len(scores) >= MIN_MEAN_F1, scores
