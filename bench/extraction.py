"""Main-content extraction benchmark: Hive's extractor against readability-lxml and trafilatura.

Run by hand from the repository root:

    .venv/bin/python bench/extraction.py [--data PATH] [--worst N]

It reads the development split of the Article Extraction Benchmark (gzipped HTML pages and their
human-checked article text, by default in ../shared/data/article-extraction-dev), extracts every page
with each extractor and scores the text as that split's README.md defines: lower-case, `\\w+` words,
sets of 4-word shingles, precision/recall/F1 per page (an empty pair scores 1, empty against non-empty
0), averaged over pages. trafilatura is compared only when it is importable; it is not a dependency.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.metadata
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "article-extraction-dev"
# Scores are about extraction, not the context budget: no page should reach the limit.
NO_LIMIT = 10_000_000
WORSE_BY = 0.05
_WORD = re.compile(r"\w+")

Extractor = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class Page:
    key: str
    url: str
    html: str
    truth: str


@dataclass(slots=True)
class Run:
    name: str
    f1: dict[str, float] = field(default_factory=dict)
    precision: dict[str, float] = field(default_factory=dict)
    recall: dict[str, float] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)


def shingle_scores(predicted: str, truth: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of the predicted text's 4-word shingles against the truth's."""
    got, want = _shingles(predicted), _shingles(truth)
    if not got and not want:
        return 1.0, 1.0, 1.0
    if not got or not want:
        return 0.0, 0.0, 0.0
    common = len(got & want)
    precision, recall = common / len(got), common / len(want)
    f1 = 2 * precision * recall / (precision + recall) if common else 0.0
    return precision, recall, f1


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}


def load_pages(data: Path) -> list[Page]:
    truth = json.loads((data / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for key, item in sorted(truth.items()):
        raw = gzip.decompress((data / "html" / f"{key}.html.gz").read_bytes())
        pages.append(Page(key=key, url=item["url"], html=raw.decode("utf-8", "replace"), truth=item["articleBody"]))
    return pages


def hive_extractor() -> Extractor:
    sys.path.insert(0, str(REPO_ROOT))
    extract = importlib.import_module("browser_pool.extract")

    def run(html: str, url: str) -> str:
        return str(extract.extract_content(html, url, limit=NO_LIMIT).text)

    return run


def readability_extractors() -> dict[str, Extractor]:
    """readability-lxml's summary as plain text, two ways of flattening its HTML.

    `text_content()` glues the words of adjacent blocks together ("end.Next"), which costs shingles;
    joining text nodes with spaces shows what readability's choice of content alone scores.
    """
    import lxml.html
    from readability import Document

    def text_content(html: str, _url: str) -> str:
        return str(lxml.html.fromstring(Document(html).summary()).text_content())

    def spaced(html: str, _url: str) -> str:
        return " ".join(lxml.html.fromstring(Document(html).summary()).itertext())

    version = _version("readability-lxml")
    return {f"readability-lxml {version}": text_content, f"readability-lxml {version}, text nodes spaced": spaced}


def trafilatura_extractor() -> Extractor | None:
    try:
        trafilatura = importlib.import_module("trafilatura")
    except ImportError:
        return None

    def run(html: str, _url: str) -> str:
        return str(trafilatura.extract(html) or "")

    return run


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def measure(extractors: dict[str, Extractor], pages: list[Page]) -> list[Run]:
    """Score every extractor on every page; extractors take turns on each page so that a busy machine
    slows them all alike."""
    runs = {name: Run(name) for name in extractors}
    for page in pages:
        for name, extractor in extractors.items():
            run = runs[name]
            started = time.perf_counter()
            text = extractor(page.html, page.url)
            run.seconds.append(time.perf_counter() - started)
            run.precision[page.key], run.recall[page.key], run.f1[page.key] = shingle_scores(text, page.truth)
    return list(runs.values())


def report(runs: list[Run], pages: list[Page], worst: int) -> None:
    print(f"{len(pages)} pages\n")
    print(f"{'extractor':<40} {'F1':>6} {'prec.':>6} {'recall':>6} {'ms/page':>8} {'median':>7}")
    for run in runs:
        print(
            f"{run.name:<40} {statistics.mean(run.f1.values()):>6.3f} {statistics.mean(run.precision.values()):>6.3f}"
            f" {statistics.mean(run.recall.values()):>6.3f} {1000 * statistics.mean(run.seconds):>8.1f}"
            f" {1000 * statistics.median(run.seconds):>7.1f}"
        )
    hive, baselines = runs[0], runs[1:3]
    urls = {page.key: page.url for page in pages}
    for baseline in baselines:
        deltas = sorted((hive.f1[key] - baseline.f1[key], key) for key in hive.f1)
        print(f"\nWorst pages, {hive.name} against {baseline.name} (F1 delta, Hive, baseline, page):")
        for delta, key in deltas[:worst]:
            print(f"  {delta:+.3f}  {hive.f1[key]:.3f}  {baseline.f1[key]:.3f}  {key[:12]}  {urls[key][:70]}")
        worse = sum(1 for delta, _ in deltas if delta < -WORSE_BY)
        better = sum(1 for delta, _ in deltas if delta > WORSE_BY)
        print(f"  pages where Hive is worse by more than {WORSE_BY}: {worse}; better by more than {WORSE_BY}: {better}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the benchmark split's directory")
    parser.add_argument("--worst", type=int, default=8, help="how many of the worst pages to list")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args(argv)
    if not (args.data / "ground-truth.json").is_file():
        print(f"no benchmark data in {args.data}", file=sys.stderr)
        return 2
    pages = load_pages(args.data)[:3] if args.smoke else load_pages(args.data)
    extractors = {"hive (browser_pool.extract)": hive_extractor(), **readability_extractors()}
    trafilatura = trafilatura_extractor()
    if trafilatura is None:
        print("trafilatura not installed: skipping it (`.venv/bin/pip install trafilatura` to compare)\n")
    else:
        extractors[f"trafilatura {_version('trafilatura')}"] = trafilatura
    report(measure(extractors, pages), pages, args.worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
